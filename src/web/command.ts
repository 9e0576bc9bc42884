/**
 * `codectx web`: starts the REST API and the web page and serves until SIGINT/SIGTERM.
 *
 * @module
 */

import { parse } from "../cli/args.ts";
import { SERVER_HELP, SERVER_OPTIONS, serverConfig } from "../http/config.ts";
import { type RunningServer, startServer } from "../http/serve.ts";
import { openSurface, untilSignal } from "../http/surface.ts";
import { createWebApp } from "./app.ts";

const HELP = `codectx web — REST API and web page

Usage: codectx web [options]

${SERVER_HELP}

Default address: http://127.0.0.1:24843 (open it in a browser).`;

/** Default REST port. */
export const WEB_PORT = 24843;

/** Runs `codectx web`; resolves with the exit code after a signal. */
export async function cmdWeb(args: string[]): Promise<number> {
  const { values } = parse(args, SERVER_OPTIONS);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const config = serverConfig(values, WEB_PORT);
  const surface = await openSurface(values, { watch: config.watch });
  let server: RunningServer;
  try {
    server = startServer({
      hostname: config.host,
      port: config.port,
      label: "web",
      build: (port) =>
        createWebApp({
          executor: surface.executor,
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
    await surface.close();
    throw err;
  }
  await untilSignal();
  await server.shutdown();
  await surface.close();
  return 0;
}
