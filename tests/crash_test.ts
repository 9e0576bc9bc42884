/**
 * Kill the indexer (SIGKILL) at several moments; the previous complete index must stay
 * readable, and the next run must complete the new one.
 */

import assert from "node:assert/strict";
import { Project } from "../src/project/project.ts";
import { cleanup, CLI, makeProject, tempIndexDir } from "./helpers.ts";

const FILE_COUNT = 500;

function pyFile(i: number, version: number): string {
  const lines = [`"""Module ${i}, version ${version}."""`, ""];
  for (let f = 0; f < 12; f++) {
    lines.push(`def func_${i}_${f}_v${version}(a, b):`, `    """Doc ${f}."""`);
    for (let k = 0; k < 8; k++) lines.push(`    a = a + b * ${k}  # step ${k}`);
    lines.push("    return a", "", "");
  }
  return lines.join("\n");
}

function project(version: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILE_COUNT; i++) files[`pkg${i % 10}/mod_${i}.py`] = pyFile(i, version);
  return files;
}

/** Starts `codectx index`, kills it once stderr shows `trigger`, and says whether it died by the kill. */
async function killDuring(root: string, indexDir: string, trigger: RegExp): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "index", "--path", root, "--index-dir", indexDir],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let killed = false;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
    if (trigger.test(seen)) {
      try {
        child.kill("SIGKILL");
        killed = true;
      } catch {
        // already gone
      }
      break;
    }
  }
  await reader.cancel().catch(() => {});
  const status = await child.status;
  return killed && status.signal === "SIGKILL";
}

/**
 * Asserts the store's current index is exactly one version of the project (one of
 * `versions`), fully readable, and returns that version.
 */
async function assertIndexIs(
  root: string,
  indexDir: string,
  ...versions: number[]
): Promise<number> {
  const p = await Project.open(root, { indexDir });
  try {
    assert.equal(await p.state(), "ready");
    const idx = await p.index();
    assert.equal(idx.files.size, FILE_COUNT);
    assert.equal(idx.symbols.length, FILE_COUNT * 12);
    const version = versions.find((v) => idx.symbols[0].name.endsWith(`_v${v}`)) ?? -1;
    const wrong = idx.symbols.filter((s) => !s.name.endsWith(`_v${version}`));
    assert.equal(
      wrong.length,
      0,
      `symbols of another version: ${wrong.slice(0, 3).map((s) => s.name)}`,
    );
    const chunks = await idx.chunks();
    assert.equal(chunks.filter((c) => c.symbol !== null).length, FILE_COUNT * 12);
    return version;
  } finally {
    p.close();
  }
}

Deno.test({
  name: "crash safety: SIGKILL during indexing keeps the previous index and the next run completes",
  sanitizeResources: false,
  fn: async () => {
    const root = await makeProject(project(1));
    const indexDir = await tempIndexDir();
    try {
      // A first complete index.
      const first = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", CLI, "index", "--path", root, "--index-dir", indexDir],
        stdout: "piped",
        stderr: "piped",
      });
      const out = await first.output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      await assertIndexIs(root, indexDir, 1);

      // Version 2 of every file; kill the indexer at several moments.
      const { writeFiles } = await import("./helpers.ts");
      await writeFiles(root, project(2));
      const moments = [/walk/, /parse: 0\//, /parse: \d+\/\d+\n.*parse: \d+\//s, /write/];
      let kills = 0;
      let keptPrevious = 0;
      for (const moment of moments) {
        if (await killDuring(root, indexDir, moment)) {
          kills++;
          // A kill before the commit leaves version 1 whole; one that lands just after the
          // commit leaves version 2 whole; never a mix, never unreadable.
          const seen = await assertIndexIs(root, indexDir, 1, 2);
          if (seen === 1) keptPrevious++;
          else break;
        }
      }
      assert.ok(kills >= 2, `only ${kills} runs were killed before they finished`);
      assert.ok(keptPrevious >= 1, "no kill landed before a commit");

      // The next run completes version 2, reusing what the killed runs wrote.
      const p = await Project.open(root, { indexDir });
      try {
        const report = await p.reindex();
        assert.equal(report.files, FILE_COUNT);
        assert.ok(
          report.parsed < FILE_COUNT,
          `expected reuse of blobs written before the kill, parsed ${report.parsed}`,
        );
      } finally {
        p.close();
      }
      await assertIndexIs(root, indexDir, 2);
    } finally {
      await cleanup(root, indexDir);
    }
  },
});
