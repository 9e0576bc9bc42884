/**
 * `codectx serve`: starts the bridge and serves until SIGINT/SIGTERM.
 *
 * @module
 */

import { parse } from "../cli/args.ts";
import { SERVER_HELP, SERVER_OPTIONS } from "../http/config.ts";
import { serveSurface } from "../http/serve.ts";
import { createBridgeApp } from "./app.ts";
import { connectHub, createEventHub } from "./events.ts";

const HELP = `codectx serve — JSON/HTTP bridge for IDE extensions and AI assistants

Usage: codectx serve [options]

${SERVER_HELP}

Default address: http://127.0.0.1:24842. The index builds in the background; /health shows
its state and tool calls wait for it.`;

/** Default bridge port. */
export const BRIDGE_PORT = 24842;

/** Runs `codectx serve`; resolves with the exit code after a signal. */
export async function cmdServe(args: string[]): Promise<number> {
  const { values } = parse(args, SERVER_OPTIONS);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const hub = createEventHub();
  let disconnect = () => {};
  const startedAt = Date.now();
  return await serveSurface({
    values,
    defaultPort: BRIDGE_PORT,
    label: "bridge",
    build: (surface, safety) => {
      disconnect = connectHub(hub, surface.executor, surface.project);
      return createBridgeApp({ executor: surface.executor, hub, startedAt, safety }).fetch;
    },
    onClose: () => {
      hub.close();
      disconnect();
    },
  });
}
