/**
 * Where a thread's time went, from the V8 CPU profiles `deno run --cpu-prof --cpu-prof-dir=DIR`
 * writes when a process ends (one `.cpuprofile` per isolate: the server's main thread, each
 * worker): per profile, its busy time, the functions with the most self time, and the time
 * charged to the innermost frame of codectx's own `src/` on the stack (what our code did,
 * callees in libraries included), and the longest stretches without an idle sample — the
 * event loop held that long (what `/health` waits behind) — each with what filled it most.
 *
 *   deno run -A bench/cpu_top.ts DIR [--top 25] [--long 50]
 *
 * @module
 */

import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { top: { type: "string", default: "25" }, long: { type: "string", default: "50" } },
});
const TOP = Number(values.top);
/** A busy stretch this long (µs) is listed. */
const LONG_US = Number(values.long) * 1000;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const short = (url: string) => url.replace(/^.*?\/(src|node_modules|ext)\//, "$1/");

function frameName(n: ProfileNode): string {
  const f = n.callFrame;
  return `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber + 1}`;
}

function summarize(file: string, p: Profile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const ours = new Map<string, number>();
  let total = 0;
  let idle = 0;
  /** Stretches of busy samples: their length and, per owner, the time in them. */
  const stretches: Array<{ us: number; owners: Map<string, number> }> = [];
  let stretch: { us: number; owners: Map<string, number> } | null = null;
  for (let i = 0; i < p.samples.length; i++) {
    const us = p.timeDeltas[i] ?? 0;
    const node = byId.get(p.samples[i]);
    if (!node) continue;
    const name = node.callFrame.functionName;
    if (name === "(idle)" || name === "(program)") {
      idle += us;
      if (stretch) stretches.push(stretch);
      stretch = null;
      continue;
    }
    total += us;
    const key = frameName(node);
    self.set(key, (self.get(key) ?? 0) + us);
    // The innermost frame of our own source on the stack, and the outermost (what started it).
    let at: ProfileNode | undefined = node;
    let outer: ProfileNode | undefined;
    while (at && !/\/src\/.*\.ts$/.test(at.callFrame.url)) at = byId.get(parent.get(at.id) ?? -1);
    for (let up: ProfileNode | undefined = at; up; up = byId.get(parent.get(up.id) ?? -1)) {
      if (/\/src\/.*\.ts$/.test(up.callFrame.url)) outer = up;
    }
    const owner = at ? frameName(at) : name.startsWith("(") ? name : "(outside src/)";
    ours.set(owner, (ours.get(owner) ?? 0) + us);
    stretch ??= { us: 0, owners: new Map() };
    stretch.us += us;
    const both = outer && outer !== at ? `${owner} < ${frameName(outer)}` : owner;
    stretch.owners.set(both, (stretch.owners.get(both) ?? 0) + us);
  }
  if (stretch) stretches.push(stretch);
  const s = (us: number) => `${(us / 1e6).toFixed(2)} s`;
  console.log(`\n${file}: busy ${s(total)}, idle ${s(idle)}`);
  const top = (m: Map<string, number>, title: string) => {
    console.log(`  ${title}:`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`    ${s(us).padStart(8)} ${(100 * us / total).toFixed(1).padStart(5)} %  ${k}`);
    }
  };
  top(self, "self time");
  top(ours, "charged to the innermost src/ frame");
  const long = stretches.filter((x) => x.us >= LONG_US).sort((a, b) => b.us - a.us);
  console.log(
    `  stretches without an idle sample ≥ ${LONG_US / 1000} ms: ${long.length} (${
      s(long.reduce((n, x) => n + x.us, 0))
    }); the longest:`,
  );
  for (const x of long.slice(0, TOP)) {
    const most = [...x.owners].sort((a, b) => b[1] - a[1]).slice(0, 2)
      .map(([k, us]) => `${(100 * us / x.us).toFixed(0)} % ${k}`).join("; ");
    console.log(`    ${(x.us / 1000).toFixed(0).padStart(6)} ms  ${most}`);
  }
}

const dir = positionals[0];
if (!dir) throw new Error("usage: bench/cpu_top.ts DIR (the --cpu-prof-dir of the server)");
for await (const e of Deno.readDir(dir)) {
  if (!e.name.endsWith(".cpuprofile")) continue;
  const p = JSON.parse(await Deno.readTextFile(`${dir}/${e.name}`)) as Profile;
  // Workers' profiles are many and small; the busiest are shown.
  summarize(e.name, p);
}
