#!/usr/bin/env bash
# Scale bench (issue 15): the Linux kernel source from Debian's linux-source-6.1 package,
# unpacked at run time into a temporary folder (never committed), then
#   cold `codectx index` (wall, CPU, peak RSS), re-index with nothing changed,
#   query latency p50/p95 (search_symbols, and semantic_search lexical and hybrid — hybrid
#   without vectors here: embedding 1.4 M chunks is out of reach of a bench run — 40 queries
#   each, one process, after one warm-up call of each; the warm-up's time, which builds the
#   lexical index or reads lexical.bin, and the process's peak RSS are printed too), and
#   every file of the tree accounted for: indexed,
#   skipped with a reason (too_large, minified, binary, unreadable), or left out by the walk
#   (not a language codectx parses, ignored, default-skipped folder), with the count of files
#   in none of these (must be 0).
#
#   apt-get install linux-source-6.1     # the tarball lands in /usr/src
#   bash bench/scale.sh [--subdir kernel] [--max-memory 2048] [--keep] [--reuse DIR]
#
# --subdir unpacks and indexes one folder of the tree only (a quick check of the bench).
# --keep leaves the work folder (tree and index) in place and says where; --reuse DIR
# takes such a folder instead of unpacking and indexing cold (re-index and queries only).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tarball=/usr/src/linux-source-6.1.tar.xz
subdir=""
maxmem=2048
keep=0
reuse=""
while [ $# -gt 0 ]; do
  case "$1" in
    --subdir) subdir="$2"; shift 2 ;;
    --max-memory) maxmem="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --reuse) reuse="$2"; keep=1; shift 2 ;;
    *) echo "usage: bash bench/scale.sh [--subdir DIR] [--max-memory MIB] [--keep] [--reuse DIR]" >&2; exit 2 ;;
  esac
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$reuse" ]; then
  work="$reuse"
  [ -d "$work/index" ] || { echo "no index in $work: give a folder a --keep run left" >&2; exit 2; }
  tree="$(cat "$work/tree")"
else
[ -f "$tarball" ] || { echo "no $tarball: run apt-get install linux-source-6.1 first" >&2; exit 2; }
work="$(mktemp -d /tmp/codectx-scale-XXXXXX)"
[ "$keep" = 1 ] && echo "work folder (kept; --reuse $work): $work" || trap 'rm -rf "$work"' EXIT
t0=$(date +%s)
tar -xJf "$tarball" -C "$work" ${subdir:+"linux-source-6.1/$subdir"}
tree="$work/linux-source-6.1${subdir:+/$subdir}"
echo "$tree" >"$work/tree"
echo "unpacked $(find "$tree" -type f | wc -l) files in $(( $(date +%s) - t0 )) s: $tree"
fi
# Debian's package adds to the top .gitignore a block that ignores everything at the top
# level ("/*", "!/debian/": its packaging repository holds only debian/). git, and so the
# walk, would then see no file at all; the kernel's own rules stay.
top="$work/linux-source-6.1/.gitignore"
if [ -f "$top" ] && grep -qx '/\*' "$top"; then
  sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$top"
  echo "removed Debian's '/*' and '!/debian/' lines from the top .gitignore"
fi

index() {
  /usr/bin/time -f "TIME %e %U %S %M" deno run -A \
    --v8-flags=--expose-gc,--no-memory-pool-share-memory-on-teardown "$repo/cli.ts" index --json \
    --max-memory "$maxmem" --path "$tree" --index-dir "$work/index" \
    >"$work/report.json" 2>"$work/index.err" || { tail -5 "$work/index.err" >&2; exit 1; }
  grep '^TIME ' "$work/index.err" | tail -1
}
if [ -z "$reuse" ]; then
read -r _ wall user sys kb <<<"$(index)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cold index: wall ${wall} s, CPU $(echo "$user + $sys" | bc) s, peak RSS $((kb / 1024)) MiB (max-memory ${maxmem})"
fi
read -r _ wall user sys kb <<<"$(index)"
echo "re-index, nothing changed: wall ${wall} s (in-process $(grep -o '"elapsed_ms": [0-9.]*' "$work/report.json" | cut -d' ' -f2) ms)"

cat >"$work/scale.ts" <<TS
import process from "node:process";
import { createExecutor } from "$repo/mod.ts";
import { languageForPath } from "$repo/src/parse/languages.ts";
import { walk } from "$repo/src/index/walker.ts";
import { Store } from "$repo/src/store/kv.ts";
const [tree, indexDir] = Deno.args;
// Latency: one process, queries any C programmer would type.
const words = ["kmalloc", "spin_lock_irqsave", "copy_from_user", "schedule_timeout", "mutex_unlock",
  "netif_rx", "vfs_read", "printk", "list_add_tail", "rcu_read_lock", "kfree_skb", "ioremap",
  "request_irq", "dma_map_single", "wake_up_process", "alloc_pages", "atomic_inc", "jiffies",
  "module_init", "platform_driver_register"];
const ex = await createExecutor(tree, { indexDir, embedder: "none", timeoutMs: 0 });
const p = (xs: number[], q: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
// Wall time per call, and the process's CPU time per call (this machine is shared: the CPU
// time says what a call costs whatever the load).
const cpu: number[] = [];
const call = async (tool: string, args: Record<string, unknown>) => {
  const t = performance.now();
  const c = process.cpuUsage();
  const r = await ex.execute({ tool_name: tool, arguments: args });
  if (!r.success) throw new Error(\`\${tool}: \${r.error}\`);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
  return performance.now() - t;
};
const hwm = () => Deno.readTextFileSync("/proc/self/status").match(/VmHWM:\\s+(\\d+)/)?.[1];
const rss = () => Deno.readTextFileSync("/proc/self/status").match(/VmRSS:\\s+(\\d+)/)?.[1];
const mib = (kb?: string) => \`\${Math.round(Number(kb) / 1024)} MiB\`;
const runs = [
  ["search_symbols", "", (w: string) => ({ query: w })],
  ["semantic_search", " lexical", (w: string) => ({ query: w.replaceAll("_", " "), mode: "lexical" })],
  ["semantic_search", " hybrid (no vectors)", (w: string) => ({ query: w.replaceAll("_", " ") })],
] as const;
for (const [tool, label, args] of runs) {
  const first = await call(tool, args("init"));
  cpu.length = 0;
  const ms: number[] = [];
  for (let i = 0; i < 40; i++) ms.push(await call(tool, args(words[i % words.length])));
  console.log(\`query \${tool}\${label}: p50 \${p(ms, 0.5).toFixed(1)} ms, p95 \${p(ms, 0.95).toFixed(1)} ms; CPU p50 \${p(cpu, 0.5).toFixed(1)}, p95 \${p(cpu, 0.95).toFixed(1)} ms (40 queries; the first call \${(first / 1000).toFixed(1)} s; RSS \${mib(rss())}, peak \${mib(hwm())})\`);
}
await ex.close();
// Every file accounted for.
const store = await Store.open(indexDir);
const manifest = (await store.readCurrent())!;
store.close();
const inManifest = new Map(manifest.files.map((f) => [f.path, f]));
const walkSkip = new Map<string, string>();
await walk(tree, { accept: (p) => languageForPath(p) !== undefined, onSkip: (p, r) => walkSkip.set(p, r) });
const counts: Record<string, number> = {};
const add = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
const examples: string[] = [];
const find = new Deno.Command("find", { args: [tree, "-type", "f", "-printf", "%P\\\\n"], stdout: "piped" });
const all = new TextDecoder().decode((await find.output()).stdout).split("\\n").filter(Boolean);
for (const path of all) {
  const f = inManifest.get(path);
  if (f) { add(f.skipped ? \`skipped: \${f.skipped}\` : "indexed"); continue; }
  let reason = walkSkip.get(path);
  for (let d = path; !reason && d.includes("/"); ) { d = d.slice(0, d.lastIndexOf("/")); reason = walkSkip.get(d); }
  if (reason) add(\`left out by the walk: \${reason}\`);
  else { add("UNACCOUNTED"); if (examples.length < 5) examples.push(path); }
}
console.log(\`files in the tree: \${all.length}\`);
for (const [k, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) console.log(\`  \${k}: \${n}\`);
console.log(\`unaccounted: \${counts.UNACCOUNTED ?? 0}\${examples.length ? " e.g. " + examples.join(", ") : ""}\`);
TS
deno run -A --unstable-kv --v8-flags=--expose-gc,--no-memory-pool-share-memory-on-teardown \
  --config "$repo/deno.json" "$work/scale.ts" "$tree" "$work/index"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
