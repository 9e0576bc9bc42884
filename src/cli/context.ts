/**
 * CLI commands for assistants' context, each a thin printer over its tool (run through the
 * executor, like every surface):
 * - `codectx explain NAME [--file F] [--json]`
 * - `codectx context NAME [--file F] [--max-tokens N] [--json]`
 * - `codectx summary [--json]`
 * - `codectx ask "QUESTION" [--top-k N] [--json]`
 *
 * @module
 */

import { intOption, parse, runTool, TOOL_COMMAND_HELP, UsageError } from "./args.ts";
import { defined } from "../tools/executor.ts";
import { CALLABLE_KINDS } from "../types.ts";

const EXPLAIN_HELP = `Usage: codectx explain NAME [options]

A symbol's definition, source (at most 200 lines), doc, members, callers and callees.
NAME may be qualified (Session.request, pkg.module.func).

Options:
  --file F          only look in file (or folder) F
${TOOL_COMMAND_HELP}
`;

const CONTEXT_HELP = `Usage: codectx context NAME [options]

A Markdown context window for NAME: its definition, then the file's imports, the
enclosing definition, what it calls and uses, its call sites and sibling members,
ranked and packed to the token budget.

Options:
  --max-tokens N    token budget (1-32000, default 2000)
  --file F          only look in file (or folder) F
${TOOL_COMMAND_HELP}
`;

const SUMMARY_HELP = `Usage: codectx summary [options]

The repository at a glance: size, languages, layout, entry points, dependencies and the
most central symbols.

Options:
${TOOL_COMMAND_HELP}
`;

const ASK_HELP = `Usage: codectx ask "QUESTION" [options]

Answers a question from the code, citing file:line. Offline by default; set
CODECTX_LLM_URL (an OpenAI-compatible endpoint), CODECTX_LLM_MODEL and CODECTX_LLM_KEY
to have a chat model write the answer from the same sources.

Options:
  --top-k N         sources (1-100, default 6)
  --no-wait         answer at once, with the vectors computed so far
${TOOL_COMMAND_HELP}
`;

type Payload = Record<string, unknown>;

type Sym = { qualified_name: string; kind: string; file: string; line: number; end_line: number };
type Place = { name: string; file: string; line: number; resolution?: string };

function printExplanation(p: Payload): void {
  const s = p.symbol as Sym & { signature: string };
  console.log(`${s.qualified_name} (${s.kind}) — ${s.file}:${s.line}-${s.end_line}`);
  const others = p.candidates as Sym[];
  if (others.length) console.log(otherSymbolsNote(others));
  if (p.doc) console.log(`\n${p.doc}`);
  console.log(`\n${p.source}`);
  const places = (title: string, list: Place[], total: number, count = String(total)) => {
    if (!list.length) return;
    console.log(`\n${title} (${count}):`);
    for (const c of list) {
      // A receiver of unknown type: the one member of that name, which may not be the one.
      const sure = c.resolution === "name" ? "  (by name only)" : "";
      console.log(`  ${c.name}  ${c.file}:${c.line}${sure}`);
    }
  };
  // A type's or a constant's "callers" are its uses.
  const called = CALLABLE_KINDS.has(s.kind);
  const callers = p.callers as Place[];
  const total = p.callers_total as number;
  places(
    called ? "Called from" : "Used by",
    callers,
    total,
    called ? callSites(callers, total) : String(total),
  );
  places("Calls", p.callees as Place[], p.callees_total as number);
  const children = p.children as Sym[];
  if (children.length) {
    console.log(`\nMembers (${children.length}):`);
    for (const c of children) console.log(`  ${c.qualified_name} (${c.kind})  ${c.file}:${c.line}`);
  }
  console.log(`\nReferences: ${p.references}`);
  const candidates = p.candidates as Sym[];
  if (candidates.length) {
    console.log(`\nOther symbols named so (--file picks one):`);
    for (const c of candidates) {
      console.log(`  ${c.qualified_name} (${c.kind})  ${c.file}:${c.line}`);
    }
  }
}

/**
 * "24 callers, 33 call sites", counted as the web page and `calls` count them: a caller is
 * a symbol that calls (or a file's top level), a call site each call it makes.
 */
function callSites(callers: Place[], total: number): string {
  const sites = `${total} call site${total === 1 ? "" : "s"}`;
  if (callers.length < total) return `${sites}, first ${callers.length} listed`;
  const distinct = new Set(callers.map((c) => c.name === "<top level>" ? c.file : c.name)).size;
  return `${distinct} caller${distinct === 1 ? "" : "s"}, ${sites}`;
}

/**
 * The line that says a name means several symbols and which one is shown, printed under
 * the answer's first line so that it is not missed.
 */
export function otherSymbolsNote(
  others: ReadonlyArray<string | { file: string; line: number }>,
): string {
  const where = others.slice(0, 3).map((c) => typeof c === "string" ? c : `${c.file}:${c.line}`)
    .join(", ");
  return `(${others.length} other symbol${others.length === 1 ? " is" : "s are"} named so: ` +
    `${where}${others.length > 3 ? ", …" : ""}; --file picks one)`;
}

/** `codectx explain NAME`. */
export async function cmdExplain(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    file: { type: "string" },
    json: { type: "boolean" },
  }, 1);
  if (values.help) {
    console.log(EXPLAIN_HELP);
    return 0;
  }
  const name = positionals[0];
  if (!name) throw new UsageError("explain needs a NAME, e.g. codectx explain Session.request");
  const { payload, code } = await runTool(
    values,
    "explain_symbol",
    defined({ symbol_name: name, file_path: values.file }),
  );
  if (code) return code;
  if (values.json) console.log(JSON.stringify(payload, null, 2));
  else printExplanation(payload);
  return 0;
}

/** `codectx context NAME [--max-tokens N]`. */
export async function cmdContext(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    file: { type: "string" },
    "max-tokens": { type: "string" },
    json: { type: "boolean" },
  }, 1);
  if (values.help) {
    console.log(CONTEXT_HELP);
    return 0;
  }
  const name = positionals[0];
  if (!name) throw new UsageError("context needs a NAME, e.g. codectx context parse_config");
  const max = intOption(values["max-tokens"], "--max-tokens");
  if (max !== undefined && (max < 1 || max > 32000)) {
    throw new UsageError(`--max-tokens must be between 1 and 32000, got ${max}`);
  }
  const { payload, code } = await runTool(
    values,
    "get_context",
    defined({ symbol_name: name, file_path: values.file, max_tokens: max }),
  );
  if (code) return code;
  if (values.json) {
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  }
  console.log(payload.text);
  const others = (payload.candidates as string[] | undefined) ?? [];
  if (others.length) console.error(otherSymbolsNote(others));
  const sources = payload.sources as unknown[];
  console.error(
    `${payload.tokens}/${payload.max_tokens} tokens, ${sources.length} sources${
      payload.truncated ? ", truncated" : ""
    }`,
  );
  return 0;
}

/** `codectx summary`. */
export async function cmdSummary(args: string[]): Promise<number> {
  const { values } = parse(args, { json: { type: "boolean" } });
  if (values.help) {
    console.log(SUMMARY_HELP);
    return 0;
  }
  const { payload, code } = await runTool(values, "summarize_repo", {});
  if (code) return code;
  console.log(values.json ? JSON.stringify(payload, null, 2) : payload.text);
  return 0;
}

/** `codectx ask "QUESTION"`. */
export async function cmdAsk(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    "top-k": { type: "string" },
    json: { type: "boolean" },
    "no-wait": { type: "boolean" },
  }, 1);
  if (values.help) {
    console.log(ASK_HELP);
    return 0;
  }
  const question = positionals[0];
  if (question === undefined || question.trim() === "") {
    throw new UsageError('ask needs a QUESTION, e.g. codectx ask "where is the config parsed?"');
  }
  const topK = intOption(values["top-k"], "--top-k");
  // Its sources come from the hybrid search: with the vectors, as `codectx search` waits for.
  const { payload, code } = await runTool(values, "ask", defined({ question, top_k: topK }), {
    vectors: true,
  });
  if (code) return code;
  if (values.json) {
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  }
  console.log(payload.answer);
  if (payload.mode === "llm") {
    const sources = payload.sources as Array<{ file: string; line: number; end_line: number }>;
    console.log(`\nSources: ${sources.map((s) => `${s.file}:${s.line}-${s.end_line}`).join(", ")}`);
  }
  if (payload.warning) console.error(`codectx: warning: ${payload.warning}`);
  return 0;
}
