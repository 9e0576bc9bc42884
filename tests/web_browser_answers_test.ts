/**
 * What the web page says about an answer, in chromium: a search snippet that opens with a
 * doc comment numbers its lines from the comment; query words are marked as words and name
 * parts, not inside other words; a score says what it means; a name that means several
 * symbols says so in the call graph view (and in the CLI); a picture's caption tells direct
 * callers from those further away; the legend draws edges as the picture does; the symbol
 * view counts callers and call sites as the CLI does. Screenshots are saved (the folder is
 * printed).
 */

import assert from "node:assert/strict";
import { runCli, tempIndexDir } from "./helpers.ts";
import { type Browser, launch, needChromium, open, serveProject } from "./web_browser_helpers.ts";

const FILES = {
  "src/config.ts": [
    'import { readFileSync } from "node:fs";',
    "",
    "/**",
    " * Parses the config file.",
    " * Returns the settings.",
    " */",
    "export function parseConfig(path: string): number {",
    "  const reconfigure = readFileSync(path).length;",
    "  return reconfigure;",
    "}",
    "",
    "export function load(path: string): number {",
    "  return parseConfig(path) + parseConfig(path + '.local');",
    "}",
    "",
    "export function start(): number {",
    "  return load('a') + load('b');",
    "}",
    "",
  ].join("\n"),
  "tools/main.py": "def main():\n    print('tools')\n",
  "cmd/main.go": "package main\n\nfunc main() {\n\trun()\n}\n\nfunc run() {}\n",
};

Deno.test("web page answers: snippet lines, highlights, scores, candidates, captions, legend", async () => {
  await needChromium();
  const shots = await Deno.makeTempDir({ prefix: "codectx-web-answers-shots-" });
  console.log(`screenshots: ${shots}`);
  const project = await serveProject(FILES);
  const browser: Browser = await launch();
  const { page } = browser;
  const url = project.srv.url;
  try {
    // The snippet of parseConfig opens with its doc comment: the definition is line 7.
    await open(page, `${url}/#/search?q=parse%20config&mode=lexical`);
    await page.screenshot({ path: `${shots}/search.png`, fullPage: true });
    const hit = page.locator("li.hit").filter({ hasText: "parseConfig" }).first();
    const defLine = await hit.locator("tr", { hasText: "export function parseConfig" })
      .getAttribute("data-line");
    assert.equal(defLine, "7");
    // `config` marks parseConfig's part, not the inside of `reconfigure`.
    const marks = await hit.locator("mark").allTextContents();
    assert.ok(marks.map((m) => m.toLowerCase()).includes("config"), marks.join(","));
    const reconf = await hit.locator("tr", { hasText: "const reconfigure" }).locator("mark")
      .count();
    assert.equal(reconf, 0);
    // What a score means is said beside the results and over each score.
    assert.match(await page.locator("#search-meta").innerText(), /from 0 to 1/);
    assert.match((await hit.locator(".score").getAttribute("title")) ?? "", /ranks the results/);

    // `main` means two functions: the picture says so and links the other.
    await open(page, `${url}/#/graph/calls/main`);
    await page.screenshot({ path: `${shots}/graph-main.png`, fullPage: true });
    const others = await page.locator("#graph-candidates").innerText();
    assert.match(others, /1 other symbol is named so/);
    assert.match(others, /(tools\/main\.py|cmd\/main\.go)/);

    // Two hops up from parseConfig: load calls it directly, start only through load.
    await open(page, `${url}/#/graph/calls/parseConfig?depth=2`);
    await page.waitForSelector("#graph-out svg g.node");
    await page.screenshot({ path: `${shots}/graph-depth2.png`, fullPage: true });
    const caption = await page.locator("#graph-caption").innerText();
    assert.match(caption, /1 direct caller, 2 within 2 hops/);
    // The legend's edges are drawn as the picture's: solid for exact, long dashes inferred.
    const legend = await page.$$eval(".legend .key", (keys) =>
      keys.map((k) => {
        // The page's window (this function runs in the browser).
        const view = (k.ownerDocument.defaultView ?? {}) as {
          getComputedStyle(e: unknown, pseudo: string): {
            backgroundImage: string;
            backgroundColor: string;
          };
        };
        const style = view.getComputedStyle(k, "::before");
        return [k.className, style.backgroundImage, style.backgroundColor];
      }));
    const of = (cls: string) => legend.find(([c]) => c.includes(cls));
    assert.equal(of("res-exact")?.[1], "none");
    assert.match(of("res-inferred")?.[1] ?? "", /9px/);
    assert.match(of("res-name")?.[1] ?? "", /4px/);

    // The symbol view counts callers (symbols) and call sites, as the CLI does.
    await open(page, `${url}/#/symbol/parseConfig`);
    await page.screenshot({ path: `${shots}/symbol.png`, fullPage: true });
    const heads = await page.locator("h3").allTextContents();
    assert.ok(heads.includes("Callers (1 · 2 call sites)"), heads.join(" | "));
  } finally {
    await browser.close();
    await project.stop();
  }
});

Deno.test("CLI: calls, explain and context say when a name means several symbols", async () => {
  const indexDir = await tempIndexDir();
  const project = await serveProject(FILES);
  try {
    const args = ["--path", project.root, "--index-dir", indexDir];
    const calls = await runCli(["calls", "main", ...args]);
    assert.equal(calls.code, 0, calls.stderr);
    assert.match(
      calls.stdout.split("\n")[1],
      /^\(1 other symbol is named so: .*main.*; --file picks one\)$/,
    );
    const explain = await runCli(["explain", "main", ...args]);
    assert.match(explain.stdout.split("\n")[1], /1 other symbol is named so/);
    const context = await runCli(["context", "main", ...args]);
    assert.match(context.stderr, /1 other symbol is named so/);
    const explainParse = await runCli(["explain", "parseConfig", ...args]);
    assert.match(explainParse.stdout, /^Callers \(2\):$/m);
  } finally {
    await project.stop();
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
});
