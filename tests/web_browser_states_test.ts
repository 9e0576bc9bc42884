/**
 * The page of `codectx web` while the index is being built, in chromium: the header shows
 * the state and a progress bar fed by `/health` and by the run's events on `/tools/stream`
 * (files done of files to do), and both give way to "ready" when the run ends. The project is generated large enough (1,500 files) for
 * the run to be watched. A screenshot is saved (the folder is printed).
 */

import assert from "node:assert/strict";
import { http, obj, poll } from "./surfaces_helpers.ts";
import {
  type Browser,
  launch,
  needChromium,
  serveProject,
  type WebProject,
} from "./web_browser_helpers.ts";

/** 30 packages of 50 modules of 12 small functions each (about 6 MB of Python). */
function bigProject(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let d = 0; d < 30; d++) {
    for (let m = 0; m < 50; m++) {
      let text = "";
      for (let f = 0; f < 12; f++) {
        text += `def fn_${d}_${m}_${f}(x, y):\n    """Step ${f}."""\n    total = 0\n` +
          "    for i in range(x):\n        if i % 2:\n            total += i * y\n" +
          "        else:\n            total -= y\n    return total\n\n\n";
      }
      files[`pkg${d}/m${m}.py`] = text;
    }
  }
  return files;
}

Deno.test("web page while indexing: the state and a progress bar, then ready", async () => {
  await needChromium();
  const shots = await Deno.makeTempDir({ prefix: "codectx-web-states-shots-" });
  console.log(`screenshots: ${shots}`);
  // The browser first, so that the page opens as soon as the run is under way.
  const browser: Browser = await launch();
  let project: WebProject | null = null;
  try {
    project = await serveProject(bigProject(), false);
    const url = project.srv.url;
    // The run is under way and has counted its files.
    const total = await poll("an indexing run with a file count", async () => {
      const h = obj((await http(`${url}/health`)).json.index);
      if (h.state === "ready") {
        throw new Error("the index was ready before the run could be watched");
      }
      const p = h.progress ? obj(h.progress) : null;
      return p && Number(p.files_total) > 0 ? Number(p.files_total) : null;
    });
    assert.equal(total, 1500);
    const { page, left } = browser;
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Listening before the page loads: its stream may be asked for as soon as it starts.
    const requested: string[] = [];
    page.on("request", (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(url + "/");
    await page.waitForSelector("#progress:not([hidden])");
    assert.match(await page.textContent("#state") ?? "", /^indexing \d+%$/);
    assert.equal(await page.getAttribute("#progress", "max"), "1500");
    assert.match(await page.getAttribute("#progress", "title") ?? "", /\d+\/1500 files/);
    await page.screenshot({ path: `${shots}/indexing.png` });
    // The run's progress events reach the bar over /tools/stream too.
    await page.waitForSelector("#progress[data-source='stream']", { state: "attached" });
    assert.ok(requested.includes("/tools/stream"), requested.join(" "));
    await page.waitForSelector("#state:text-is('ready')", { timeout: 180_000 });
    await page.waitForSelector("#progress[hidden]", { state: "attached", timeout: 180_000 });
    assert.match(await page.textContent("#project") ?? "", /1500 files/);
    await page.screenshot({ path: `${shots}/ready.png` });
    assert.deepEqual(left, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await project?.stop();
  }
});
