/**
 * What a new user met in a first session and was fixed: a symbol kind that does not exist
 * (`search_symbols` `kind: "banana"`) answered 200 with nothing found instead of a 400 naming
 * the field and the kinds there are, and every load of the web page logged a 404 for
 * `/favicon.ico` in the browser's console.
 */

import assert from "node:assert/strict";
import { http, obj } from "./surfaces_helpers.ts";
import { chromium } from "playwright-core";
import { CHROMIUM, needChromium, open, serveProject } from "./web_browser_helpers.ts";

const FILES = {
  "app/util.py": "def parse_config(path):\n    return path\n",
  "app/main.py": "from app.util import parse_config\n\nparse_config('x')\n",
};

Deno.test("a kind that is no symbol kind is a 400 naming kind and the kinds there are", async () => {
  const web = await serveProject(FILES);
  try {
    const bad = await http(`${web.srv.url}/api/symbols?q=parse&kind=banana`);
    assert.equal(bad.status, 400, JSON.stringify(bad.json));
    const message = String(obj(obj(bad.json).error).message);
    assert.match(message, /kind 'banana'/);
    assert.match(message, /function, method, constructor, class/);
    // A real kind still filters.
    const ok = await http(`${web.srv.url}/api/symbols?q=parse&kind=function`);
    assert.equal(ok.status, 200);
    const names = (obj(ok.json).symbols as { qualified_name: string }[]).map((s) =>
      s.qualified_name
    );
    assert.deepEqual(names, ["parse_config"]);
  } finally {
    await web.stop();
  }
});

Deno.test("the web page loads without a failed request or a console error", async () => {
  await needChromium();
  const web = await serveProject(FILES);
  // A plain (not persistent) context: it asks for the page's icon as a browser tab does.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on("console", (m) => {
      if (m.type() === "error") failed.push(`console: ${m.text()}`);
    });
    await open(page, `${web.srv.url}/#/search?q=parse%20config`);
    await open(page, `${web.srv.url}/#/file/app/main.py`);
    // The icon is asked for after the page has loaded.
    await page.waitForLoadState("networkidle");
    assert.deepEqual(failed, []);
  } finally {
    await browser.close();
    await web.stop();
  }
});
