/**
 * A digest of `get_context` answers: ~100 calls on symbols that `search_symbols` finds for
 * fixed words (each with its file, at two budgets), every payload hashed — run before and
 * after a change that must not change the windows, on the same tree and index.
 *
 *   deno run -A bench/context_digest.ts --path DIR [--index-dir DIR] [--show]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createExecutor } from "../src/tools/executor.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    show: { type: "boolean", default: false },
  },
});
if (!values.path) {
  console.error("usage: deno run -A bench/context_digest.ts --path DIR [--index-dir DIR]");
  Deno.exit(2);
}

const WORDS = ["parse", "read", "write", "open", "close", "run", "format", "load", "Error", "get"];

async function digest(text: string): Promise<string> {
  const h = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...h.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const ex = await createExecutor(values.path, { indexDir: values["index-dir"], timeoutMs: 0 });
const lines: string[] = [];
try {
  const targets: { name: string; file: string }[] = [];
  for (const q of WORDS) {
    const r = await ex.execute(
      { tool_name: "search_symbols", arguments: { query: q, limit: 10 } },
      {
        timeoutMs: 0,
      },
    );
    const found = (r.result_payload as { symbols?: { qualified_name: string; file: string }[] })
      ?.symbols ?? [];
    for (const s of found) targets.push({ name: s.qualified_name, file: s.file });
  }
  for (const [i, t] of targets.entries()) {
    const args = { symbol_name: t.name, file_path: t.file, max_tokens: i % 3 === 0 ? 4000 : 1500 };
    const r = await ex.execute({ tool_name: "get_context", arguments: args }, { timeoutMs: 0 });
    const body = JSON.stringify(r.success ? r.result_payload : { error: r.error });
    const line = `get_context ${JSON.stringify(args)} → ${await digest(body)}`;
    lines.push(line);
    console.log(values.show ? `${line}\n${body}` : line);
  }
  console.log(`all ${lines.length} calls → ${await digest(lines.join("\n"))}`);
} finally {
  await ex.close();
}
