#!/usr/bin/env bash
# Scale bench (issue 15): the Linux kernel source from Debian's linux-source-6.1 package,
# unpacked at run time into a temporary folder (never committed), then
#   cold `codectx index` (wall, CPU, peak RSS), re-index with nothing changed,
#   query latency p50/p95 (search_symbols, and semantic_search lexical and hybrid — hybrid
#   without vectors here: embedding 1.4 M chunks is out of reach of a bench run — 40 queries
#   each, a fresh process per tool as a server just started: the first call's time and the
#   process's peak RSS after it are printed too; bench/scale_queries.ts), and
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
inproc=$(grep -o '"elapsed_ms": [0-9.]*' "$work/report.json" | cut -d' ' -f2)
echo "cold index: wall ${wall} s, CPU $(echo "$user + $sys" | bc) s, peak RSS $((kb / 1024)) MiB (max-memory ${maxmem}); the indexing run ${inproc} ms of it, then $(echo "scale=1; $wall - $inproc / 1000" | bc) s of builds after the commit (symbols.bin, then chunks.bin, then lexical.bin in a worker)"
fi
read -r _ wall user sys kb <<<"$(index)"
echo "re-index, nothing changed: wall ${wall} s (in-process $(grep -o '"elapsed_ms": [0-9.]*' "$work/report.json" | cut -d' ' -f2) ms)"

for what in symbols lexical hybrid files; do
  deno run -A --unstable-kv --v8-flags=--expose-gc,--no-memory-pool-share-memory-on-teardown \
    --config "$repo/deno.json" "$repo/bench/scale_queries.ts" "$tree" "$work/index" "$what"
done
ls -l "$work/index/symbols.bin" "$work/index/lexical.bin" 2>/dev/null | awk '{printf "%s %d MiB\n", $NF, $5 / 1048576}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
