/**
 * `codectx serve`: starts the bridge and serves until SIGINT/SIGTERM.
 *
 * @module
 */

import { parse } from "../cli/args.ts";
import { SERVER_HELP, SERVER_OPTIONS, serverConfig } from "../http/config.ts";
import { type RunningServer, startServer } from "../http/serve.ts";
import { openSurface, untilSignal } from "../http/surface.ts";
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
  const config = serverConfig(values, BRIDGE_PORT);
  const surface = await openSurface(values, { watch: config.watch });
  const hub = createEventHub();
  const disconnect = connectHub(hub, surface.executor, surface.project);
  const startedAt = Date.now();
  let server: RunningServer;
  try {
    server = startServer({
      hostname: config.host,
      port: config.port,
      label: "bridge",
      build: (port) =>
        createBridgeApp({
          executor: surface.executor,
          hub,
          startedAt,
          safety: {
            hostname: config.host,
            port: () => port,
            token: config.token,
            allowOrigins: config.allowOrigins,
            maxBody: config.maxBody,
          },
        }).fetch,
    });
  } catch (err) {
    disconnect();
    await surface.close();
    throw err;
  }
  await untilSignal();
  hub.close();
  await server.shutdown();
  disconnect();
  await surface.close();
  return 0;
}
