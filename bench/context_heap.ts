/**
 * In one process: the heap and peak memory of `get_context` on an indexed project — heap
 * used (after a full collection) and VmHWM before the call, after one call and after a
 * second on another symbol. Run with `--v8-flags=--expose-gc`.
 *
 *   deno run -A --v8-flags=--expose-gc bench/context_heap.ts --path DIR --index-dir DIR [SYMBOL…]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createExecutor } from "../src/tools/executor.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { path: { type: "string" }, "index-dir": { type: "string" } },
  allowPositionals: true,
});
const names = positionals.length ? positionals : ["urlparse", "HTTPConnection.request"];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function figures(): string {
  gc();
  const heap = Deno.memoryUsage().heapUsed / 2 ** 20;
  const status = Deno.readTextFileSync("/proc/self/status");
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  return `heap ${heap.toFixed(0)} MiB, VmHWM ${hwm.toFixed(0)} MiB`;
}

const ex = await createExecutor(values.path!, { indexDir: values["index-dir"], timeoutMs: 0 });
try {
  await ex.execute({ tool_name: "index_project", arguments: {} }, { timeoutMs: 0 });
  console.log(`opened: ${figures()}`);
  for (const name of names) {
    const t = performance.now();
    const r = await ex.execute(
      { tool_name: "get_context", arguments: { symbol_name: name, max_tokens: 1500 } },
      { timeoutMs: 0 },
    );
    if (!r.success) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
    console.log(`${name} (${((performance.now() - t) / 1000).toFixed(1)} s): ${figures()}`);
  }
} finally {
  await ex.close();
}
