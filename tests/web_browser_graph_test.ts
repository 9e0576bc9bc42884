/**
 * The pictures of `codectx web` at 200 nodes, in chromium: a generated Python project of ten
 * packages (19 modules each, a binary tree of calls inside each package, a call and an import
 * across to the next package, a builtin call in every function) whose call graph from `main`
 * at depth 5 has 191 project nodes and whose dependency graph has 191 files. Measured in the
 * browser: the nodes are boxed by folder, no two node labels overlap, every label stays inside
 * its box, the first view is readable (labels at least 8 px high) and shows the symbol, the
 * builtins are collapsed. Screenshots are saved (the folder is printed).
 */

import assert from "node:assert/strict";
import type { Page } from "npm:playwright-core@1.65.1";
import { type Browser, launch, needChromium, open, serveProject } from "./web_browser_helpers.ts";

const PACKAGES = 10;
const MODULES = 19;

/** The generated project: `main.py` and `pkgP/mM.py` with `step_P_M()`. */
function largeProject(): Record<string, string> {
  const files: Record<string, string> = { "README.md": "# Large\n\nA generated call tree.\n" };
  const imports: string[] = [];
  const calls: string[] = [];
  for (let p = 0; p < PACKAGES; p++) {
    files[`pkg${p}/__init__.py`] = "";
    imports.push(`from pkg${p}.m0 import step_${p}_0`);
    calls.push(`    step_${p}_0()`);
    for (let m = 0; m < MODULES; m++) {
      const children = [2 * m + 1, 2 * m + 2].filter((c) => c < MODULES);
      const lines = children.map((c) => `from pkg${p}.m${c} import step_${p}_${c}`);
      const body = children.map((c) => `    step_${p}_${c}()`);
      if (m === 0) {
        // Across to the next package: an import and a call between folders.
        const q = (p + 1) % PACKAGES;
        lines.push(`from pkg${q}.m1 import step_${q}_1`);
        body.push(`    step_${q}_1()`);
      }
      files[`pkg${p}/m${m}.py`] = `${lines.join("\n")}\n\n\ndef step_${p}_${m}():\n` +
        `    """Step ${m} of package ${p}."""\n${body.join("\n")}\n    return len([${m}])\n`;
    }
  }
  files["main.py"] = `${imports.join("\n")}\n\n\ndef main():\n    """Run every package."""\n${
    calls.join("\n")
  }\n`;
  return files;
}

/** What the picture on the page measures. */
interface Measure {
  nodes: number;
  clusters: string[];
  /** Pairs of node labels whose boxes intersect. */
  overlaps: string[];
  /** Labels that stick out of their node's shape. */
  outside: string[];
  /** Smallest label height on screen, in CSS pixels. */
  minLabelPx: number;
  /** Whether the centre node is inside the frame. */
  centerVisible: boolean;
}

/** Measures the picture: label boxes from the browser's layout. */
async function measure(page: Page): Promise<Measure> {
  await page.waitForSelector("#graph-out svg g.node");
  return await page.$eval("#graph-out .graph-frame", (frame) => {
    type Box = { left: number; right: number; top: number; bottom: number; height: number };
    const rect = (e: { getBoundingClientRect(): Box }): Box => e.getBoundingClientRect();
    const labels = [...frame.querySelectorAll("svg g.node")].map((g) => {
      const text = g.querySelector("text");
      const shape = g.querySelector("path, polygon, ellipse");
      return { g, name: text?.textContent ?? "", t: text ? rect(text) : null, s: shape };
    });
    const overlaps: string[] = [];
    const outside: string[] = [];
    const hit = (a: Box, b: Box) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 &&
      b.top < a.bottom - 0.5;
    for (let i = 0; i < labels.length; i++) {
      const a = labels[i];
      if (!a.t) continue;
      if (a.s) {
        const s = rect(a.s);
        if (a.t.left < s.left - 1 || a.t.right > s.right + 1) outside.push(a.name);
      }
      for (let j = i + 1; j < labels.length; j++) {
        const b = labels[j];
        if (b.t && hit(a.t, b.t)) overlaps.push(`${a.name} × ${b.name}`);
      }
    }
    const f = rect(frame);
    const center = frame.querySelector("svg g.node.center");
    const c = center ? rect(center) : null;
    return {
      nodes: labels.length,
      clusters: [...frame.querySelectorAll("svg g.cluster text")].map((t) => t.textContent ?? ""),
      overlaps,
      outside,
      minLabelPx: Math.min(...labels.map((l) => l.t?.height ?? 0)),
      centerVisible: !!c && c.left >= f.left && c.right <= f.right && c.top >= f.top &&
        c.bottom <= f.bottom,
    };
  });
}

Deno.test("web pictures at 200 nodes: clusters, no overlapping labels, readable", async (t) => {
  await needChromium();
  const shots = await Deno.makeTempDir({ prefix: "codectx-web-graph-shots-" });
  console.log(`screenshots: ${shots}`);
  const project = await serveProject(largeProject());
  let browser: Browser | null = null;
  try {
    browser = await launch();
    const { page, left } = browser;
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const base = project.srv.url + "/";
    const shot = (name: string) => page.screenshot({ path: `${shots}/${name}.png` });

    await t.step("the call graph of main at depth 5: 191 nodes in folder boxes", async () => {
      await open(page, base + "#/graph/calls/main?depth=5");
      const m = await measure(page);
      await shot("calls-200");
      assert.equal(m.nodes, 1 + PACKAGES * MODULES, "every function, builtins collapsed");
      for (let p = 0; p < PACKAGES; p++) {
        assert.ok(m.clusters.some((c) => c.includes(`pkg${p}`)), `pkg${p} in ${m.clusters}`);
      }
      assert.ok(m.clusters.length <= 2 * PACKAGES, `few boxes, not one per file: ${m.clusters}`);
      assert.deepEqual(m.overlaps, []);
      assert.deepEqual(m.outside, []);
      assert.ok(m.minLabelPx >= 8, `labels are ${m.minLabelPx} px high`);
      assert.ok(m.centerVisible, "the first view shows main");
      const caption = await page.textContent("#graph-out") ?? "";
      // The builtin call of every function but the 40 leaves, whose calls are a 6th hop.
      assert.match(caption, /150 calls leaving the project are hidden/);
      const labels = await page.$$eval(
        "#graph-out g.node text",
        (ts) => ts.map((x) => x.textContent),
      );
      assert.ok(!labels.includes("len"), "builtins are not nodes");
      // Zoom and pan move the view; a drag that ends on a node does not open it.
      const viewBox = async () =>
        (await page.getAttribute("#graph-out svg.graph-svg", "viewBox") ?? "").split(" ").map(
          Number,
        );
      const start = await viewBox();
      await page.click("#graph-out .graph-tools button[title='zoom in']");
      const zoomed = await viewBox();
      assert.ok(zoomed[2] < start[2], `zoom in narrows the view: ${start} → ${zoomed}`);
      const url = page.url();
      const node = await page.$("#graph-out svg g.node.center");
      const b = (await node!.boundingBox())!;
      await page.mouse.move(b.x + b.width / 2 + 200, b.y + b.height / 2 + 50);
      await page.mouse.down();
      await page.mouse.move(b.x + b.width / 2 + 100, b.y + b.height / 2 + 20, { steps: 5 });
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
      await page.mouse.up();
      const panned = await viewBox();
      assert.ok(panned[0] > zoomed[0] && panned[1] > zoomed[1], `${zoomed} → ${panned}`);
      assert.equal(page.url(), url, "the drag did not follow a link");
      await page.click("#graph-out .graph-tools button[title='show the whole picture']");
      const all = await viewBox();
      assert.ok(all[2] >= start[2] && all[3] >= start[3], "fit shows the whole picture");
      await shot("calls-200-fit");
    });

    await t.step("depth control: depth 2 draws the first two hops only", async () => {
      await open(page, base + "#/graph/calls/main?depth=2");
      const m = await measure(page);
      // main, ten step_P_0, and their callees: step_P_1, step_P_2 (step_P_1 also from P-1).
      assert.equal(m.nodes, 1 + PACKAGES * 3);
      assert.deepEqual(m.overlaps, []);
      assert.ok(m.minLabelPx >= 8, `labels are ${m.minLabelPx} px high`);
      await shot("calls-depth2");
    });

    await t.step("the whole project's files: 191 nodes in folder boxes, no overlap", async () => {
      await open(page, base + "#/graph/deps?fold=0");
      const m = await measure(page);
      await shot("deps-200");
      assert.equal(m.nodes, 1 + PACKAGES * MODULES + PACKAGES, "main, modules, __init__ files");
      for (let p = 0; p < PACKAGES; p++) {
        assert.ok(m.clusters.some((c) => c.includes(`pkg${p}`)), `pkg${p} in ${m.clusters}`);
      }
      assert.deepEqual(m.overlaps, []);
      assert.deepEqual(m.outside, []);
      assert.ok(m.minLabelPx >= 8, `labels are ${m.minLabelPx} px high`);
      // The imports between two boxes are drawn box to box (one per pair of boxes): main's
      // ten and the ten from one package to the next.
      const bundles = await page.$$eval("#graph-out svg g.edge.bundle", (es) => es.length);
      assert.equal(bundles, 2 * PACKAGES);
    });

    await t.step("folded by folder it is eleven nodes", async () => {
      await open(page, base + "#/graph/deps");
      const m = await measure(page);
      await shot("deps-folded");
      assert.equal(m.nodes, PACKAGES + 1, "a folder each, and the root");
      assert.match(await page.textContent("#graph-caption") ?? "", /folded to 1 folder level ·/);
      assert.deepEqual(m.overlaps, []);
      assert.ok(m.minLabelPx >= 8, `labels are ${m.minLabelPx} px high`);
    });

    await t.step("nothing left 127.0.0.1 and the page raised no error", () => {
      assert.deepEqual(left, []);
      assert.deepEqual(errors, []);
    });
  } finally {
    await browser?.close();
    await project.stop();
  }
});
