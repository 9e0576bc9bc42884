#!/usr/bin/env bash
# Scale bench (issue 15): the Linux kernel source from Debian's linux-source-6.1 package,
# unpacked at run time into a temporary folder (never committed), then
#   cold `codectx index` (wall, CPU, peak RSS), re-index with nothing changed,
#   query latency p50/p95 (search_symbols and lexical semantic_search, 40 queries each, one
#   process, after one warm-up call), and every file of the tree accounted for: indexed,
#   skipped with a reason (too_large, minified, binary, unreadable), or left out by the walk
#   (not a language codectx parses, ignored, default-skipped folder), with the count of files
#   in none of these (must be 0).
#
#   apt-get install linux-source-6.1     # the tarball lands in /usr/src
#   bash bench/scale.sh [--subdir kernel] [--max-memory 2048] [--keep]
#
# --subdir unpacks and indexes one folder of the tree only (a quick check of the bench).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tarball=/usr/src/linux-source-6.1.tar.xz
subdir=""
maxmem=2048
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --subdir) subdir="$2"; shift 2 ;;
    --max-memory) maxmem="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: bash bench/scale.sh [--subdir DIR] [--max-memory MIB] [--keep]" >&2; exit 2 ;;
  esac
done
[ -f "$tarball" ] || { echo "no $tarball: run apt-get install linux-source-6.1 first" >&2; exit 2; }
work="$(mktemp -d /tmp/codectx-scale-XXXXXX)"
[ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
tar -xJf "$tarball" -C "$work" ${subdir:+"linux-source-6.1/$subdir"}
tree="$work/linux-source-6.1${subdir:+/$subdir}"
echo "unpacked $(find "$tree" -type f | wc -l) files in $(( $(date +%s) - t0 )) s: $tree"
# Debian's package adds to the top .gitignore a block that ignores everything at the top
# level ("/*", "!/debian/": its packaging repository holds only debian/). git, and so the
# walk, would then see no file at all; the kernel's own rules stay.
top="$work/linux-source-6.1/.gitignore"
if [ -f "$top" ] && grep -qx '/\*' "$top"; then
  sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$top"
  echo "removed Debian's '/*' and '!/debian/' lines from the top .gitignore"
fi

index() {
  /usr/bin/time -f "TIME %e %U %S %M" deno run -A "$repo/cli.ts" index --json \
    --max-memory "$maxmem" --path "$tree" --index-dir "$work/index" \
    >"$work/report.json" 2>"$work/index.err" || { tail -5 "$work/index.err" >&2; exit 1; }
  grep '^TIME ' "$work/index.err" | tail -1
}
read -r _ wall user sys kb <<<"$(index)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cold index: wall ${wall} s, CPU $(echo "$user + $sys" | bc) s, peak RSS $((kb / 1024)) MiB (max-memory ${maxmem})"
read -r _ wall user sys kb <<<"$(index)"
echo "re-index, nothing changed: wall ${wall} s (in-process $(grep -o '"elapsed_ms": [0-9.]*' "$work/report.json" | cut -d' ' -f2) ms)"

cat >"$work/scale.ts" <<TS
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
await ex.execute({ tool_name: "search_symbols", arguments: { query: "init" } });
const p = (xs: number[], q: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
for (const [tool, args] of [["search_symbols", (w: string) => ({ query: w })],
  ["semantic_search", (w: string) => ({ query: w.replaceAll("_", " "), mode: "lexical" })]] as const) {
  const ms: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    const r = await ex.execute({ tool_name: tool, arguments: args(words[i % words.length]) });
    if (!r.success) throw new Error(r.error);
    ms.push(performance.now() - t);
  }
  console.log(\`query \${tool}: p50 \${p(ms, 0.5).toFixed(1)} ms, p95 \${p(ms, 0.95).toFixed(1)} ms (40 queries)\`);
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
deno run -A --unstable-kv --config "$repo/deno.json" "$work/scale.ts" "$tree" "$work/index"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
