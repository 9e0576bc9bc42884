/**
 * What a server's V8 heap holds, through the inspector of a process started with
 * `deno run --inspect=127.0.0.1:0` (the benches' servers only; nothing of it is on the wire
 * of a server). `heapSummary(url)` runs two full collections, takes a heap snapshot and sums
 * its nodes by type and constructor name; `heapDiff` prints what grew between two.
 *
 *   deno run -A bench/heap_snapshot.ts snap ws://127.0.0.1:PORT/ID out.json
 *   deno run -A bench/heap_snapshot.ts diff before.json after.json
 *   deno run -A bench/heap_snapshot.ts top out.json
 *   deno run -A bench/heap_snapshot.ts retainers ws://127.0.0.1:PORT/ID Uint8Array
 *   deno run -A bench/heap_snapshot.ts sample ws://127.0.0.1:PORT/ID SECONDS
 *
 * `sample` says what the server's main thread allocates meanwhile (by function and by stack):
 * what a load promotes into the old generation comes from there.
 *
 * @module
 */

/** Live heap by `type:name`: [node count, self bytes]; `TOTAL` sums all. */
export type HeapSummary = Record<string, [number, number]>;

/** The inspector URL a `--inspect` process prints on stderr, if seen. */
export function inspectorUrl(stderr: string): string | null {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1] ?? null;
}

/** An inspector session: a method call answered by its result; `events` gets every event. */
async function inspect(
  url: string,
  events: (method: string, params: Record<string, unknown>) => void = () => {},
): Promise<{ call: (method: string, params?: unknown) => Promise<unknown>; close: () => void }> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
    else if (m.method) events(m.method, m.params);
  };
  const call = (method: string, params: unknown = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => ws.close() };
}

/** Collects twice and takes a heap snapshot (the parsed `.heapsnapshot` JSON). */
export async function takeSnapshot(url: string): Promise<Snapshot> {
  const parts: string[] = [];
  const { call, close } = await inspect(url, (method, params) => {
    if (method === "HeapProfiler.addHeapSnapshotChunk") parts.push(params.chunk as string);
  });
  await call("HeapProfiler.enable");
  await call("HeapProfiler.collectGarbage");
  await call("HeapProfiler.collectGarbage");
  parts.length = 0;
  await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  await call("HeapProfiler.disable");
  close();
  return JSON.parse(parts.join(""));
}

/** A node of V8's sampling heap profile. */
interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

/**
 * What the main thread allocated during `seconds` (V8's sampling heap profiler, one sample per
 * 16 KiB on average, objects collected since included): bytes by function, and by the last
 * `depth` frames of the stack that allocated them, largest first.
 */
export async function allocationSample(
  url: string,
  seconds: number,
  depth = 4,
): Promise<{ total: number; byFunction: [string, number][]; byStack: [string, number][] }> {
  const { call, close } = await inspect(url);
  await call("HeapProfiler.enable");
  await call("HeapProfiler.startSampling", {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const { profile } = await call("HeapProfiler.stopSampling") as { profile: { head: SampleNode } };
  await call("HeapProfiler.disable");
  close();
  const byFunction = new Map<string, number>();
  const byStack = new Map<string, number>();
  let total = 0;
  const walk = (node: SampleNode, stack: string[]) => {
    const f = node.callFrame;
    const where = f.url.replace(/^.*\/(src|bench|ext)\//, "$1/");
    const frame = `${f.functionName || "(anonymous)"} ${where}:${f.lineNumber + 1}`;
    const path = [...stack, frame].slice(-depth);
    if (node.selfSize) {
      total += node.selfSize;
      byFunction.set(frame, (byFunction.get(frame) ?? 0) + node.selfSize);
      const key = path.join(" < ");
      byStack.set(key, (byStack.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, path);
  };
  walk(profile.head, []);
  const sorted = (m: Map<string, number>) => [...m].sort((p, q) => q[1] - p[1]);
  return { total, byFunction: sorted(byFunction), byStack: sorted(byStack) };
}

/** A V8 heap snapshot as the inspector writes it. */
export interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Collects twice, snapshots the heap and sums it by node type and name. */
export async function heapSummary(url: string): Promise<HeapSummary> {
  return summarize(await takeSnapshot(url));
}

/** Sums a snapshot's nodes by type and name. */
export function summarize(snap: Snapshot): HeapSummary {
  const fields = snap.snapshot.meta.node_fields as string[];
  const types = snap.snapshot.meta.node_types[0] as string[];
  const width = fields.length;
  const [iType, iName, iSize] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const nodes = snap.nodes as number[];
  const strings = snap.strings as string[];
  const out: HeapSummary = {};
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + iType]];
    const named = !/string|number/.test(type);
    const key = `${type}:${named ? strings[nodes[i + iName]].slice(0, 80) : ""}`;
    const size = nodes[i + iSize];
    total += size;
    const e = out[key] ??= [0, 0];
    e[0]++;
    e[1] += size;
  }
  out.TOTAL = [nodes.length / width, total];
  return out;
}

/**
 * For a few objects named `name`, the chain of what keeps each alive (nearest first), for
 * finding who holds what grew.
 */
export function retainers(snap: Snapshot, name: string, samples = 3, depth = 12): string[] {
  const nf = snap.snapshot.meta.node_fields;
  const ef = snap.snapshot.meta.edge_fields;
  const nTypes = snap.snapshot.meta.node_types[0];
  const eTypes = snap.snapshot.meta.edge_types[0];
  const W = nf.length, EW = ef.length;
  const [iType, iName, iEdges] = ["type", "name", "edge_count"].map((f) => nf.indexOf(f));
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => ef.indexOf(f));
  const { nodes, edges, strings } = snap;
  const count = nodes.length / W;
  // Reverse edges: for each node, one retainer (first strong one seen) with the edge's label.
  const by = new Int32Array(count).fill(-1);
  const label: string[] = new Array(count);
  let e = 0;
  for (let n = 0; n < count; n++) {
    const k = nodes[n * W + iEdges];
    for (let j = 0; j < k; j++, e += EW) {
      const t = eTypes[edges[e + eType]];
      if (t === "weak" || t === "shortcut") continue;
      const to = edges[e + eTo] / W;
      if (by[to] !== -1) continue;
      by[to] = n;
      label[to] = t === "element" || t === "hidden"
        ? `[${edges[e + eName]}]`
        : `.${strings[edges[e + eName]]}`;
    }
  }
  const desc = (n: number) =>
    `${nTypes[nodes[n * W + iType]]} ${strings[nodes[n * W + iName]].slice(0, 60)}`;
  const out: string[] = [];
  let found = 0;
  for (let n = 0; n < count && found < samples; n++) {
    if (strings[nodes[n * W + iName]] !== name) continue;
    found++;
    const chain = [desc(n)];
    for (let m = n, d = 0; by[m] !== -1 && d < depth; d++) {
      chain.push(`  ← ${label[m]} of ${desc(by[m])}`);
      m = by[m];
    }
    out.push(chain.join("\n"));
  }
  return out;
}

/** Lines of what grew (or shrank) most between two summaries. */
export function heapDiff(a: HeapSummary, b: HeapSummary, rows = 25): string[] {
  return Object.keys({ ...a, ...b }).map((k) => {
    const [ca, sa] = a[k] ?? [0, 0];
    const [cb, sb] = b[k] ?? [0, 0];
    return { k, dc: cb - ca, ds: sb - sa, sb };
  }).sort((p, q) => Math.abs(q.ds) - Math.abs(p.ds)).slice(0, rows).map((r) =>
    `${(r.ds / 1024).toFixed(0).padStart(8)} KiB ${String(r.dc).padStart(8)} objects  (now ${
      (r.sb / 1024).toFixed(0)
    } KiB)  ${r.k}`
  );
}

if (import.meta.main) {
  const [cmd, a, b] = Deno.args;
  const read = (p: string) => JSON.parse(Deno.readTextFileSync(p)) as HeapSummary;
  if (cmd === "snap") {
    const s = await heapSummary(a);
    await Deno.writeTextFile(b, JSON.stringify(s));
    console.log(`${(s.TOTAL[1] / 2 ** 20).toFixed(1)} MiB live in ${s.TOTAL[0]} objects → ${b}`);
  } else if (cmd === "retainers") {
    const snap = await takeSnapshot(a);
    for (const chain of retainers(snap, b, 3)) console.log(chain + "\n");
  } else if (cmd === "diff") {
    for (const line of heapDiff(read(a), read(b))) console.log(line);
  } else if (cmd === "sample") {
    const { total, byFunction, byStack } = await allocationSample(a, Number(b));
    const mib = (n: number) => (n / 2 ** 20).toFixed(1).padStart(8);
    console.log(`${mib(total)} MiB allocated in ${b} s`);
    for (const [k, n] of byFunction.slice(0, 25)) console.log(`${mib(n)} MiB  ${k}`);
    console.log("by stack (last 4 frames):");
    for (const [k, n] of byStack.slice(0, 20)) console.log(`${mib(n)} MiB  ${k}`);
  } else if (cmd === "top") {
    const rows = Object.entries(read(a)).sort((p, q) => q[1][1] - p[1][1]).slice(0, 40);
    for (const [k, [c, s]] of rows) {
      console.log(`${(s / 2 ** 20).toFixed(2).padStart(8)} MiB ${String(c).padStart(9)}  ${k}`);
    }
  } else {
    console.error(
      "usage: heap_snapshot.ts snap <ws-url> <out.json> | diff <a> <b> | top <a> | " +
        "retainers <ws-url> <name> | sample <ws-url> <seconds>",
    );
    Deno.exit(2);
  }
}
