/**
 * `codectx web`: starts the REST API and the web page and serves until SIGINT/SIGTERM.
 *
 * @module
 */

import { connectHub, createEventHub } from "../http/events.ts";
import { serveSurface } from "../http/serve.ts";
import { createWebApp } from "../web/app.ts";
import { openExecutor, parse } from "./args.ts";
import { SERVER_HELP, SERVER_OPTIONS, serverConfig } from "./server_options.ts";

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
  // The hub is ours, so shutdown closes the page's event streams instead of waiting them out.
  const hub = createEventHub();
  let disconnect = () => {};
  return await serveSurface({
    executor: await openExecutor(values),
    config,
    label: "web",
    build: (executor, safety) => {
      disconnect = connectHub(hub, executor);
      return createWebApp({ executor, hub, safety }).fetch;
    },
    onClose: () => {
      hub.close();
      disconnect();
    },
  });
}
