/**
 * `codectx doctor` on this machine (every check passes), on an index folder that cannot be a
 * folder, and on a damaged model copy and old runtimes (each fails or warns with a fix).
 */

import assert from "node:assert/strict";
import { runDoctor } from "../src/service/doctor.ts";
import { cleanup, runCli, tempIndexDir } from "./helpers.ts";
import { REPO } from "./surfaces_helpers.ts";

const NAMES = ["deno", "grammars", "model", "index folder", "free space"];

Deno.test("doctor: every check passes here and the output says so", async () => {
  const dir = await tempIndexDir();
  try {
    const out = await runCli(["doctor", "--index-dir", `${dir}/codectx`]);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    for (const name of NAMES) assert.match(out.stdout, new RegExp(`^ok +${name}: `, "m"));
    assert.match(out.stdout, /checksum matches/);
    assert.match(out.stdout, /all good/);
    // The probe leaves nothing behind in the index folder.
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${dir}/codectx`)), []);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("doctor: an index folder that cannot be made fails with what to do, exit 1", async () => {
  const dir = await tempIndexDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "not a folder");
    const out = await runCli(["doctor", "--index-dir", `${dir}/file/index`, "--json"]);
    assert.equal(out.code, 1, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.equal(report.ok, false);
    const index = report.checks.find((c: { name: string }) => c.name === "index folder");
    assert.equal(index.status, "fail");
    assert.match(index.fix, /--index-dir DIR or CODECTX_HOME/);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("doctor: a damaged model and an old Deno are named, each with a fix", async () => {
  const dir = await tempIndexDir();
  try {
    const model = `${dir}/model/`;
    await Deno.mkdir(model);
    for (const f of ["manifest.json", "vectors.bin", "vocab.txt"]) {
      await Deno.copyFile(`${REPO}/model/codectx-code/${f}`, `${model}${f}`);
    }
    const bytes = await Deno.readFile(`${model}vectors.bin`);
    bytes[100] ^= 0xff;
    await Deno.writeFile(`${model}vectors.bin`, bytes);
    const damaged = await runDoctor({
      indexDir: `${dir}/index`,
      modelDir: new URL(`file://${model}`),
      denoVersion: "1.46.3",
    });
    const by = new Map(damaged.map((c) => [c.name, c]));
    assert.equal(by.get("model")?.status, "fail");
    assert.match(by.get("model")?.detail ?? "", /checksum/);
    assert.match(by.get("model")?.fix ?? "", /restore model\/codectx-code/);
    assert.equal(by.get("deno")?.status, "fail");
    assert.match(by.get("deno")?.fix ?? "", /deno@2\./);

    await Deno.remove(`${model}vocab.txt`);
    const missing = await runDoctor({
      indexDir: `${dir}/index`,
      modelDir: new URL(`file://${model}`),
      denoVersion: "2.0.0",
    });
    const m = new Map(missing.map((c) => [c.name, c]));
    assert.match(m.get("model")?.detail ?? "", /missing/);
    assert.equal(m.get("deno")?.status, "warn");
    assert.equal(m.get("index folder")?.status, "ok");
  } finally {
    await cleanup(dir);
  }
});
