/**
 * `codectx serve`: starts the bridge and serves until SIGINT/SIGTERM.
 *
 * @module
 */

import { createBridgeApp } from "../bridge/app.ts";
import { connectHub, createEventHub } from "../http/events.ts";
import { serveSurface } from "../http/serve.ts";
import { openExecutor, parse } from "./args.ts";
import { SERVER_HELP, SERVER_OPTIONS, serverConfig } from "./server_options.ts";

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
  const config = serverConfig(values, BRIDGE_PORT);
  return await serveSurface({
    executor: await openExecutor(values),
    config,
    label: "bridge",
    build: (executor, safety) => {
      disconnect = connectHub(hub, executor);
      return createBridgeApp({ executor, hub, startedAt, safety }).fetch;
    },
    onClose: () => {
      hub.close();
      disconnect();
    },
  });
}
