/**
 * The query half of the scale bench (`bench/scale.sh` runs it): one fresh process per
 * tool, as a server just started on a kept index would be. Prints the first call's time and
 * the process's peak RSS after it (what the first user of a new server waits for), then
 * p50/p95 of 40 queries any C programmer would type, with the CPU time per call (the
 * machine is shared: CPU says what a call costs whatever the load). `files` instead checks
 * that every file of the tree is accounted for.
 *
 *   deno run -A bench/scale_queries.ts TREE INDEX_DIR symbols|lexical|hybrid|files
 */

import process from "node:process";
import { createExecutor } from "../mod.ts";
import { languageForPath } from "../src/parse/languages.ts";
import { walk } from "../src/index/walker.ts";
import { Store } from "../src/store/kv.ts";

const [tree, indexDir, mode] = Deno.args;
const words = [
  "kmalloc",
  "spin_lock_irqsave",
  "copy_from_user",
  "schedule_timeout",
  "mutex_unlock",
  "netif_rx",
  "vfs_read",
  "printk",
  "list_add_tail",
  "rcu_read_lock",
  "kfree_skb",
  "ioremap",
  "request_irq",
  "dma_map_single",
  "wake_up_process",
  "alloc_pages",
  "atomic_inc",
  "jiffies",
  "module_init",
  "platform_driver_register",
];
const status = (field: string) =>
  Number(Deno.readTextFileSync("/proc/self/status").match(new RegExp(`${field}:\\s+(\\d+)`))?.[1]);
const mib = (kb: number) => `${Math.round(kb / 1024)} MiB`;
const pct = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const runs: Record<string, [string, string, (w: string) => Record<string, unknown>]> = {
  symbols: ["search_symbols", "search_symbols", (w) => ({ query: w })],
  lexical: ["semantic_search", "semantic_search lexical", (w) => ({
    query: w.replaceAll("_", " "),
    mode: "lexical",
  })],
  hybrid: ["semantic_search", "semantic_search hybrid (no vectors)", (w) => ({
    query: w.replaceAll("_", " "),
  })],
};

if (mode in runs) {
  const [tool, label, args] = runs[mode];
  const ex = await createExecutor(tree, { indexDir, embedder: "none", timeoutMs: 0 });
  const cpu: number[] = [];
  const call = async (a: Record<string, unknown>) => {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await ex.execute({ tool_name: tool, arguments: a });
    if (!r.success) throw new Error(`${tool}: ${r.error}`);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    return performance.now() - t;
  };
  const first = await call(args("init"));
  const firstPeak = status("VmHWM");
  cpu.length = 0;
  const ms: number[] = [];
  for (let i = 0; i < 40; i++) ms.push(await call(args(words[i % words.length])));
  const p95 = pct(ms, 0.95);
  console.log(
    `${label}: first call after a start ${(first / 1000).toFixed(2)} s (${
      (first / p95).toFixed(1)
    } × p95), peak RSS after it ${mib(firstPeak)}; p50 ${pct(ms, 0.5).toFixed(1)} ms, p95 ${
      p95.toFixed(1)
    } ms; CPU p50 ${pct(cpu, 0.5).toFixed(1)}, p95 ${pct(cpu, 0.95).toFixed(1)} ms ` +
      `(40 queries; RSS ${mib(status("VmRSS"))}, peak ${mib(status("VmHWM"))})`,
  );
  await ex.close();
} else if (mode === "files") {
  // Every file: indexed, skipped with a reason, or left out by the walk with one.
  const store = await Store.open(indexDir);
  const manifest = (await store.readCurrent())!;
  store.close();
  const inManifest = new Map(manifest.files.map((f) => [f.path, f]));
  const walkSkip = new Map<string, string>();
  await walk(tree, {
    accept: (p) => languageForPath(p) !== undefined,
    onSkip: (p, r) => walkSkip.set(p, r),
  });
  const counts: Record<string, number> = {};
  const add = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
  const examples: string[] = [];
  const find = new Deno.Command("find", {
    args: [tree, "-type", "f", "-printf", "%P\\n"],
    stdout: "piped",
  });
  const all = new TextDecoder().decode((await find.output()).stdout).split("\n").filter(Boolean);
  for (const path of all) {
    const f = inManifest.get(path);
    if (f) {
      add(f.skipped ? `skipped: ${f.skipped}` : "indexed");
      continue;
    }
    let reason = walkSkip.get(path);
    for (let d = path; !reason && d.includes("/");) {
      d = d.slice(0, d.lastIndexOf("/"));
      reason = walkSkip.get(d);
    }
    if (reason) add(`left out by the walk: ${reason}`);
    else {
      add("UNACCOUNTED");
      if (examples.length < 5) examples.push(path);
    }
  }
  console.log(`files in the tree: ${all.length}`);
  for (const [k, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) {
    console.log(`  ${k}: ${n}`);
  }
  console.log(
    `unaccounted: ${counts.UNACCOUNTED ?? 0}${
      examples.length ? " e.g. " + examples.join(", ") : ""
    }`,
  );
} else {
  console.error(
    "usage: deno run -A bench/scale_queries.ts TREE INDEX_DIR symbols|lexical|hybrid|files",
  );
  Deno.exit(2);
}
