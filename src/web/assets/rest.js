// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The page's client of the REST API: `api` calls an endpoint with the session's bearer token
 * (asked for when the server answers 401) and answers the JSON body or throws the error body's
 * message; the types say what each endpoint answers.
 *
 * @module
 */

/**
 * A place in the project, as the API answers it.
 * @typedef {{ file: string, line: number }} Where
 */
/**
 * One search hit of `/api/search`.
 * `column` is where an exact or regex match starts on its line.
 * @typedef {Where & { end_line: number, symbol?: string | null, kind?: string | null,
 *   score: number, snippet: string, language: string, column?: number,
 *   snippet_line?: number }} SearchHit
 */
/**
 * One symbol, as every endpoint answers it.
 * @typedef {Where & {
 *   name: string, qualified_name: string, kind: string, end_line: number, language: string,
 *   signature?: string, doc?: string, parent?: string | null
 * }} SymbolInfo
 */
/**
 * One import of a file.
 * @typedef {{ module: string, resolved?: string | null, external?: boolean,
 *   package?: string | null, line: number, names?: string[] }} ImportInfo
 */
/**
 * One node of `/api/callgraph`: `call_file:call_line` is the call that reached it.
 * `resolution` (`exact`, `inferred`, `name`) is preferred over the older `resolved` flag;
 * `external` marks builtins and library calls (`kind` `builtin`/`external`), `kind`
 * `unknown` a call whose receiver could not be typed.
 * @typedef {{ name: string, file: string | null, line: number | null, kind: string,
 *   call_file: string, call_line: number, depth: number, resolved?: boolean,
 *   resolution?: string, external?: boolean }} CallNode
 */
/**
 * One call edge of `/api/callgraph`; `file` and `line` say where the call is.
 * @typedef {{ from: string, to: string, file: string, line: number, resolved?: boolean,
 *   resolution?: string, external?: boolean }} Edge
 */
/**
 * `GET /health`: `index.progress` while an indexing run goes on.
 * @typedef {{
 *   project: { name: string, root: string, files: number, symbols: number,
 *     languages?: Record<string, number> },
 *   index: { state: string, vectors?: number, vectors_total?: number, vectors_state?: string,
 *     progress?: { phase: string, files_done: number, files_total: number } | null }
 * }} Health
 */
/**
 * `GET /api/search`.
 * @typedef {{ results: SearchHit[], took_ms: number, index_state?: string, mode?: string }}
 *   SearchAnswer
 */
/**
 * `GET /api/symbols`.
 * @typedef {{ symbols: SymbolInfo[], total: number }} SymbolsAnswer
 */
/**
 * `GET /api/symbol`: one symbol explained.
 * @typedef {{ symbol: SymbolInfo, source: string, source_truncated: boolean, doc: string,
 *   parent: SymbolInfo | null, children: SymbolInfo[],
 *   callers: { name: string, file: string, line: number, resolution?: string }[],
 *   callers_total: number,
 *   callees: { name: string, file: string, line: number, resolution?: string }[],
 *   callees_total: number, references: number, candidates: SymbolInfo[],
 *   unresolved_candidates?: number }} SymbolAnswer
 */
/**
 * One reference of `/api/references`.
 * @typedef {Where & { column: number, context: string, kind: string, symbol?: string,
 *   in?: string | null, resolution?: string }} Reference
 */
/**
 * `GET /api/references`.
 * `by_resolution` counts all found references by how they were resolved.
 * @typedef {{ symbol: string, definitions: SymbolInfo[], references: Reference[],
 *   total: number, truncated: boolean,
 *   by_resolution?: { exact: number, inferred: number, name: number } }} ReferencesAnswer
 */
/**
 * `GET /api/file`: a file's outline; with `source=1` also its text (`source_truncated` when
 * the file is longer than the API answers).
 * @typedef {{ file: string, language: string, lines: number, size: number,
 *   symbols: SymbolInfo[], imports: ImportInfo[], imported_by: string[],
 *   parse_error: string | null, source?: string, source_truncated?: boolean,
 *   source_names?: [number, number][] }} FileAnswer
 */
/**
 * `GET /api/deps`: one file's imports, or (no file) the whole graph.
 * @typedef {{ file?: string | null, imports?: ImportInfo[], imported_by?: string[],
 *   nodes?: { file: string, language: string }[],
 *   edges?: { from: string, to: string, line?: number }[],
 *   external?: { package: string, count: number, files: number }[],
 *   cycles?: string[][] }} DepsAnswer
 */
/**
 * `GET /api/callgraph`.
 * @typedef {{ symbol: string, definition?: SymbolInfo, candidates?: SymbolInfo[],
 *   edges?: Edge[], callers?: CallNode[], callees?: CallNode[],
 *   unresolved_candidates?: number }} CallGraph
 */
/**
 * `GET /api/summary`.
 * @typedef {{
 *   name: string, files: number, lines: number, text?: string,
 *   languages?: { language: string, files: number, lines: number }[],
 *   key_symbols?: SymbolInfo[]
 * }} SummaryAnswer
 */
/**
 * `POST /api/ask`.
 * @typedef {{ answer: string, sources?: SearchHit[], mode?: string, warning?: string }} AskAnswer
 */
/**
 * One security finding of `/api/quality`.
 * @typedef {Where & { test_id: string, test_name: string, severity: string,
 *   confidence: string, code: string, message: string, cwe: number }} Finding
 */
/**
 * `GET /api/quality`.
 * @typedef {{ path: string, maintainability_index: number, rank: string,
 *   files: { file: string, language: string, sloc: number, maintainability_index: number,
 *     rank: string, cyclomatic_complexity: number, issues: number }[],
 *   worst_functions: (SymbolInfo & { complexity: number, rank: string })[],
 *   bandit_issues: Finding[],
 *   issue_counts: { total: number, by_severity: Record<string, number> } }} QualityAnswer
 */
/**
 * A changed definition of `/api/impact`.
 * @typedef {Where & { qualified_name: string, kind: string, end_line: number,
 *   change: string, signature: string, signature_changed: boolean, old_signature?: string,
 *   public: boolean, references: number }} ChangedInfo
 */
/**
 * A definition `/api/impact` reached: `path` runs from the changed one to it.
 * @typedef {Where & { qualified_name: string, kind: string, hop: number, resolution: string,
 *   path: string[], via: { file: string, line: number, kind: string }, test: boolean }}
 *   ImpactedInfo
 */
/**
 * `GET /api/impact`, `POST /api/impact`.
 * @typedef {{ source: string, base: string | null,
 *   files: { file: string, status: string, applied: boolean }[],
 *   changed: ChangedInfo[], impacted: ImpactedInfo[], impacted_total: number,
 *   truncated: boolean, impacted_files: { file: string, hop: number, test: boolean }[],
 *   tests_to_run: { files: string[], functions: (Where & { qualified_name: string })[] },
 *   risk: { likely_breaks: { qualified_name: string, file: string, reason: string,
 *     references: number, sites: string[] }[], public_api: string[] } }} ImpactAnswer
 */
/**
 * The body of every failed API call.
 * @typedef {{ error?: { code: string, message: string } }} ErrorBody
 */
/**
 * The options `api` passes on to `fetch`.
 * @typedef {{ method?: string, headers?: Record<string, string>, body?: string }} ApiInit
 */

/** The bearer token, kept for this browser tab. */
let token = sessionStorage.getItem("codectx-token") || "";

/**
 * Calls the API with the session's token; answers the JSON body, or throws the error
 * body's message. On 401 it asks for the token and tries again.
 * @param {string} path
 * @param {ApiInit} [init]
 * @returns {Promise<unknown>}
 */
export function api(path, init) {
  init = init || {};
  /** @type {Record<string, string>} */
  const headers = init.headers || {};
  init.headers = headers;
  if (token) headers["Authorization"] = "Bearer " + token;
  const sent = init;
  return fetch(path, sent).then((res) => {
    if (res.status === 401) {
      const t = prompt("This codectx server needs its token:");
      if (t) {
        token = t;
        sessionStorage.setItem("codectx-token", t);
        return api(path, sent);
      }
    }
    return res.json().catch(() => ({})).then((/** @type {ErrorBody} */ body) => {
      if (!res.ok) {
        const err = body && body.error
          ? body.error
          : { code: String(res.status), message: res.statusText };
        throw new Error(err.message);
      }
      return body;
    });
  });
}

/**
 * `GET` of an endpoint with these query parameters, typed by the caller.
 * @template T
 * @param {string} path
 * @param {Record<string, string | number | undefined>} [params]
 * @returns {Promise<T>}
 */
export function get(path, params) {
  return /** @type {Promise<T>} */ (api(path + q(params || {})));
}

/**
 * The query string of these parameters; empty and absent ones are left out.
 * @param {Record<string, string | number | undefined>} params
 * @returns {string}
 */
export function q(params) {
  /** @type {string[]} */
  const parts = [];
  Object.keys(params).forEach((k) => {
    const v = params[k];
    if (v !== undefined && v !== "") {
      parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(v));
    }
  });
  return parts.length ? "?" + parts.join("&") : "";
}
