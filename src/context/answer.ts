/**
 * `ask`: answers a question from the code. Retrieval (named symbols + search) gives the
 * sources; offline, the answer is composed from them (what is where, signatures, doc lines,
 * snippets, callers and callees); with a chat endpoint configured, the sources go to the
 * model with the question and its answer comes back with the same sources. A model that
 * fails or times out leaves the offline answer with a warning.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { LoadedIndex, Project } from "../project/project.ts";
import type { WireSearchItem } from "../search/item.ts";
import type { SymbolRecord } from "../types.ts";
import { graphFor, type GraphView, type Use } from "./graph.ts";
import { chatCompletion, type ChatMessage, type LlmConfig } from "./llm.ts";
import { clampText, fitBudget } from "./pack.ts";
import { retrieve, type Searcher } from "./retrieve.ts";
import { docSummary, fenceLanguage } from "./source.ts";
import { type TokenCounter, tokenCounter } from "./tokens.ts";

/** Default number of sources. */
export const DEFAULT_ASK_TOP_K = 6;
/** Budget of the offline answer. */
export const ANSWER_TOKENS = 2000;
/** Budget of the code sent to a model. */
export const LLM_CONTEXT_TOKENS = 6000;

/** What `ask` answers. */
export interface Answer {
  answer: string;
  sources: WireSearchItem[];
  /** `offline` (composed here) or `llm` (the model's answer). */
  mode: "offline" | "llm";
  model?: string;
  /** Why the model's answer is missing, when a model was configured. */
  warning?: string;
}

/** Options of {@linkcode askQuestion}. */
export interface AskOptions {
  topK?: number;
  /** The chat endpoint; null or absent answers offline. */
  llm?: LlmConfig | null;
  /** The search to retrieve with (default: the project's hybrid search). */
  search?: Searcher;
  signal?: AbortSignal;
  /**
   * What the caller knows made the answer weaker (e.g. a search without all its vectors): said
   * above the answer and in `warning`, in one note with a failing model's.
   */
  notes?: readonly string[];
}

/**
 * Answers `question` from the project's code.
 *
 * @example
 * ```ts
 * const a = await askQuestion(project, "where is the config parsed?", { topK: 5 });
 * console.log(a.answer, a.sources.map((s) => `${s.file}:${s.line}`));
 * ```
 */
export async function askQuestion(
  project: Project,
  question: string,
  opts: AskOptions = {},
): Promise<Answer> {
  const q = question.trim();
  if (!q) {
    throw new CodectxError("invalid_argument", "question is empty; ask something about the code");
  }
  const topK = opts.topK ?? DEFAULT_ASK_TOP_K;
  const index = await project.index();
  const { items, named } = await retrieve(project, q, topK, opts.search);
  const [graph, counter] = await Promise.all([graphFor(project, index), tokenCounter()]);
  const offline = composeOffline(q, items, named, index, graph, counter);
  const notes = [...(opts.notes ?? [])];
  // One note above the answer, the same words in `warning`.
  const noted = (a: Answer): Answer => {
    if (!notes.length) return a;
    const warning = notes.join("; ");
    return { ...a, answer: `> Note: ${warning}.\n\n${a.answer}`, warning };
  };
  if (!opts.llm) return noted({ answer: offline, sources: items, mode: "offline" });
  try {
    const answer = await chatCompletion(opts.llm, promptMessages(q, items, counter), opts.signal);
    return noted({ answer, sources: items, mode: "llm", model: opts.llm.model });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    notes.push(
      `the language model at ${opts.llm.url} did not answer (${why}); this is the offline answer`,
    );
    return noted({ answer: offline, sources: items, mode: "offline" });
  }
}

function cite(it: { file: string; line: number; end_line?: number }): string {
  return it.end_line && it.end_line !== it.line
    ? `${it.file}:${it.line}-${it.end_line}`
    : `${it.file}:${it.line}`;
}

/** The symbol record behind an item, if any. */
function symbolOf(index: LoadedIndex, it: WireSearchItem): SymbolRecord | undefined {
  if (!it.symbol) return undefined;
  return (index.symbolsByFile.get(it.file) ?? []).find((s) =>
    s.qualifiedName === it.symbol && s.startLine <= it.end_line && s.endLine >= it.line
  );
}

/** Said of a call matched by name alone (a receiver of unknown type), as explain says it. */
function guess(u: Use): string {
  return u.byNameOnly ? ", matched by name only" : "";
}

function neighbours(graph: GraphView, s: SymbolRecord): string[] {
  const out: string[] = [];
  const callers = new Map<string, string>();
  for (const u of graph.usesOf(s)) {
    if (u.kind !== "call" || callers.size >= 5) continue;
    const name = u.from?.qualifiedName ?? "top level";
    if (!callers.has(name)) callers.set(name, `\`${name}\` (${u.file}:${u.line}${guess(u)})`);
  }
  if (callers.size) out.push(`Called from ${[...callers.values()].join(", ")}.`);
  const callees = new Map<string, string>();
  for (const u of graph.usedBy(s)) {
    if (u.kind !== "call" || callees.size >= 5 || u.to === s) continue;
    if (!callees.has(u.to.qualifiedName)) {
      callees.set(
        u.to.qualifiedName,
        `\`${u.to.qualifiedName}\` (${u.to.file}:${u.to.line}${guess(u)})`,
      );
    }
  }
  if (callees.size) out.push(`Calls ${[...callees.values()].join(", ")}.`);
  return out;
}

/** Text without its whitespace: a signature over several lines of code is the index's one line. */
function squeezed(text: string): string {
  return text.replace(/\s+/g, "");
}

/** Quoted code read as prose: comment markers dropped, whitespace runs made one space. */
function proseOf(code: string[]): string {
  return code.map((l) => l.replace(/^\s*(?:\/\/+|#+|\/?\*+\/?|--|"""|''')?/, ""))
    .join(" ").replace(/\s+/g, " ");
}

/** The offline answer: the sources as a ranked, cited walk-through, within its budget. */
export function composeOffline(
  question: string,
  items: WireSearchItem[],
  named: SymbolRecord[],
  index: LoadedIndex,
  graph: GraphView,
  counter: TokenCounter,
): string {
  if (!items.length) {
    return `I found no code related to “${question}” in this project's index. ` +
      "Try other words, a symbol name, or run index_project if the code is new.";
  }
  const intro: string[] = [];
  // Each thing is said once: a signature or doc line the quoted code (or the intro) already
  // shows is not repeated.
  const saidDocs = new Set<string>();
  if (named.length) {
    for (const s of named.slice(0, 3)) {
      const doc = docSummary(s.doc);
      if (doc) saidDocs.add(doc);
      intro.push(
        `\`${s.qualifiedName}\` is a ${s.kind} defined at ${s.file}:${s.line}${
          doc ? `: ${doc}` : "."
        }`,
      );
    }
  } else {
    intro.push(`The code most related to “${question}”, best match first:`);
  }
  const blocks = items.map((it, i) => {
    const s = symbolOf(index, it);
    const title = it.symbol ? `\`${it.symbol}\`${it.kind ? ` (${it.kind})` : ""}` : "code";
    const lines = [`### ${i + 1}. ${title} — ${cite(it)}`, ""];
    const snippet = it.snippet.split("\n").slice(0, 15);
    if (s) {
      const sig = s.signature.split("\n")[0].trim();
      if (sig && !squeezed(snippet.join("")).includes(squeezed(sig))) {
        lines.push(`Signature: \`${sig}\``);
      }
      const doc = docSummary(s.doc);
      if (doc && !saidDocs.has(doc) && !proseOf(snippet).includes(doc)) {
        lines.push(`Doc: ${doc}`);
      }
      if (doc) saidDocs.add(doc);
      if (i < 3) lines.push(...neighbours(graph, s));
      if (lines.length > 2) lines.push("");
    }
    const more = it.snippet.split("\n").length > 15 || it.end_line - it.line + 1 > snippet.length;
    lines.push("```" + fenceLanguage(it.language), ...snippet, "```");
    if (more) lines.push(`(more in ${cite(it)})`);
    return lines.join("\n");
  });
  // The headings cite the sources shown; the closing line lists only those left out.
  const render = (n: number) =>
    [
      intro.join("\n"),
      ...blocks.slice(0, n),
      ...(n < items.length ? [`Sources: ${items.slice(n).map((it) => cite(it)).join(", ")}`] : []),
    ].join("\n\n");
  const fit = fitBudget(0, blocks.length, ANSWER_TOKENS, counter, render);
  return fit ? fit.text : clampText(render(0), ANSWER_TOKENS, counter).text;
}

/** The messages sent to a model: instructions, then the retrieved code and the question. */
export function promptMessages(
  question: string,
  items: WireSearchItem[],
  counter: TokenCounter,
): ChatMessage[] {
  const parts = items.map((it) =>
    `### ${cite(it)}${it.symbol ? ` — ${it.symbol}` : ""}\n` +
    "```" + fenceLanguage(it.language) + "\n" + it.snippet + "\n```"
  );
  const render = (n: number) => parts.slice(0, n).join("\n\n");
  const context = fitBudget(0, parts.length, LLM_CONTEXT_TOKENS, counter, render)?.text ?? "";
  return [
    {
      role: "system",
      content: "You answer questions about a code base using only the code excerpts given. " +
        "Cite the file:line of every excerpt you rely on. If the excerpts do not answer the " +
        "question, say so and say where to look next. Be brief and exact.",
    },
    {
      role: "user",
      content: `Code excerpts:\n\n${context || "(none found)"}\n\nQuestion: ${question}`,
    },
  ];
}
