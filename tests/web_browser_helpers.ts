/**
 * Helpers of the browser tests of `codectx web`: Debian's chromium (never a downloaded
 * browser) launched by `playwright-core` with every request outside loopback refused and
 * recorded, `codectx web` on a project, and the waits the page's views need.
 */

import { type BrowserContext, chromium, type Page } from "npm:playwright-core@1.65.1";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { type Child, http, obj, poll, startCli } from "./surfaces_helpers.ts";

/** Debian's chromium; CI installs it when a browser test exists. */
export const CHROMIUM = "/usr/bin/chromium";

/** Fails with what to do when chromium is not installed. */
export async function needChromium(): Promise<void> {
  const have = await Deno.stat(CHROMIUM).catch(() => null);
  if (!have) {
    throw new Error(
      `chromium is missing at ${CHROMIUM}: install it with 'apt-get install -y chromium' ` +
        "(.ci/run does this when a browser test exists)",
    );
  }
}

/** `codectx web` serving a project written from `files`, its index ready. */
export interface WebProject {
  root: string;
  srv: Child;
  /** Stops the server and removes the project and its index. */
  stop(): Promise<void>;
}

/**
 * Writes the project, starts `codectx web --no-watch` on it and (unless `wait` is false)
 * waits for the index.
 */
export async function serveProject(
  files: Record<string, string>,
  wait = true,
): Promise<WebProject> {
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const srv = await startCli("web", [
    "--port",
    "0",
    "--path",
    root,
    "--index-dir",
    indexDir,
    "--no-watch",
  ]);
  if (wait) await waitReady(srv.url);
  return {
    root,
    srv,
    async stop() {
      await srv.stop();
      await cleanup(root, indexDir);
    },
  };
}

/** Waits (up to three minutes) until the server's index is ready. */
export async function waitReady(url: string): Promise<void> {
  await poll("the index", async () => {
    const h = await http(`${url}/health`);
    return obj(h.json.index).state === "ready";
  }, 180_000);
}

/** A browser whose requests outside loopback are refused and listed in `left`. */
export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Addresses outside loopback the pages tried to reach. */
  left: string[];
  close(): Promise<void>;
}

/**
 * Launches chromium headless with a fresh profile; `hosts` are extra names that resolve to
 * this machine (for cross-origin pages).
 */
export async function launch(hosts: string[] = []): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "codectx-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      ...(hosts.length
        ? [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1`).join(",")}`]
        : []),
    ],
  });
  const left: string[] = [];
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.protocol === "about:" || u.protocol === "data:") return route.continue();
    if (u.hostname === "127.0.0.1" || u.hostname === "localhost" || hosts.includes(u.hostname)) {
      return route.continue();
    }
    left.push(u.href);
    return route.abort();
  });
  const page = context.pages()[0] ?? await context.newPage();
  return {
    context,
    page,
    left,
    async close() {
      await context.close();
      await cleanup(profile);
    },
  };
}

/** Waits until the page's view has finished drawing. */
export async function settled(page: Page): Promise<void> {
  // A selector, not a script: the page's Content-Security-Policy forbids evaluated strings.
  await page.waitForSelector("main#view:not([aria-busy]) > .view > *", { state: "attached" });
}

/** Opens an address fresh (a hash-only `goto` would keep the old view). */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(url);
  await settled(page);
}

/** The labels of the nodes of the picture on the page. */
export async function nodeLabels(page: Page): Promise<string[]> {
  await page.waitForSelector("#graph-out svg g.node");
  return await page.$$eval(
    "#graph-out svg g.node text",
    (ts) => ts.map((t) => t.textContent ?? ""),
  );
}
