/**
 * A small Language Server Protocol client for the benches: starts a server on stdio,
 * speaks JSON-RPC with `Content-Length` framing, answers the requests servers send back
 * (configuration, capability registration, progress tokens) and offers the few requests
 * the reference oracle needs: document symbols, references, call hierarchy.
 *
 * Positions on the wire are 0-based lines and UTF-16 columns; the helpers here return
 * 1-based lines and 1-based UTF-16 columns.
 *
 * @module
 */

/** A location as the benches compare them: project-relative file, 1-based line and column. */
export interface Spot {
  file: string;
  line: number;
  column: number;
}

/** One document symbol, flattened, with its container chain. */
export interface DocSymbol {
  name: string;
  /** LSP SymbolKind number. */
  kind: number;
  /** Names of the enclosing symbols, outermost first. */
  containers: string[];
  /** 0-based position of the name. */
  line0: number;
  char0: number;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Options of {@link LspClient.start}. */
export interface LspStart {
  /** Command and arguments of the server. */
  command: string[];
  /** Workspace root (absolute). */
  root: string;
  env?: Record<string, string>;
  initializationOptions?: unknown;
  /** Answer to `workspace/configuration` items, by section (default `{}`). */
  settings?: Record<string, unknown>;
  /** Log server stderr and messages. */
  verbose?: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A running language server. */
export class LspClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly opened = new Set<string>();
  private buffer = new Uint8Array(0);
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Progress tokens begun and not yet ended (servers index in the background). */
  readonly progress = new Set<string | number>();
  private idleWaiters: Array<() => void> = [];

  private constructor(
    private readonly child: Deno.ChildProcess,
    private readonly opts: LspStart,
  ) {
    this.writer = child.stdin.getWriter();
    this.readLoop();
    if (opts.verbose) {
      child.stderr.pipeTo(
        new WritableStream({ write: (c) => void Deno.stderr.write(c) }),
      ).catch(() => {});
    } else child.stderr.cancel().catch(() => {});
  }

  /** Starts the server and runs `initialize`/`initialized`. */
  static async start(opts: LspStart): Promise<LspClient> {
    const [cmd, ...args] = opts.command;
    const child = new Deno.Command(cmd, {
      args,
      cwd: opts.root,
      env: opts.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const c = new LspClient(child, opts);
    const rootUri = toUri(opts.root);
    await c.request("initialize", {
      processId: Deno.pid,
      rootUri,
      rootPath: opts.root,
      workspaceFolders: [{ uri: rootUri, name: "bench" }],
      initializationOptions: opts.initializationOptions,
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        window: { workDoneProgress: true },
        textDocument: {
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          references: {},
          callHierarchy: {},
          synchronization: { didSave: false },
        },
      },
    });
    c.notify("initialized", {});
    if (opts.settings) c.notify("workspace/didChangeConfiguration", { settings: opts.settings });
    return c;
  }

  private async readLoop(): Promise<void> {
    const reader = this.child.stdout.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const joined = new Uint8Array(this.buffer.length + value.length);
        joined.set(this.buffer);
        joined.set(value, this.buffer.length);
        this.buffer = joined;
        this.drain();
      }
    } catch {
      // The server went away; pending requests fail below.
    }
    for (const p of this.pending.values()) p.reject(new Error("language server exited"));
    this.pending.clear();
  }

  private drain(): void {
    for (;;) {
      let headerEnd = -1;
      for (let i = 0; i + 3 < this.buffer.length; i++) {
        if (
          this.buffer[i] === 13 && this.buffer[i + 1] === 10 && this.buffer[i + 2] === 13 &&
          this.buffer[i + 3] === 10
        ) {
          headerEnd = i;
          break;
        }
      }
      if (headerEnd < 0) return;
      const header = decoder.decode(this.buffer.subarray(0, headerEnd));
      const length = Number(/content-length:\s*(\d+)/i.exec(header)?.[1] ?? NaN);
      if (!Number.isFinite(length)) throw new Error(`bad LSP header: ${header}`);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = decoder.decode(this.buffer.subarray(start, start + length));
      this.buffer = this.buffer.slice(start + length);
      this.dispatch(JSON.parse(body));
    }
  }

  private dispatch(msg: Record<string, unknown>): void {
    if (this.opts.verbose) console.error("<-", JSON.stringify(msg).slice(0, 300));
    if ("id" in msg && ("result" in msg || "error" in msg) && !("method" in msg)) {
      const p = this.pending.get(msg.id as number);
      if (!p) return;
      this.pending.delete(msg.id as number);
      if (msg.error) {
        const e = msg.error as { message?: string; code?: number };
        p.reject(new Error(`LSP error ${e.code}: ${e.message}`));
      } else p.resolve(msg.result);
      return;
    }
    const method = msg.method as string;
    const params = msg.params as Record<string, unknown> | undefined;
    if (method === "$/progress" && params) {
      const kind = (params.value as { kind?: string } | undefined)?.kind;
      const token = params.token as string | number;
      if (kind === "begin") this.progress.add(token);
      if (kind === "end") {
        this.progress.delete(token);
        if (this.progress.size === 0) {
          for (const w of this.idleWaiters.splice(0)) w();
        }
      }
    }
    if ("id" in msg) {
      // A request from the server.
      let result: unknown = null;
      if (method === "workspace/configuration") {
        const items = (params?.items ?? []) as Array<{ section?: string }>;
        result = items.map((it) =>
          (it.section ? lookupSection(this.opts.settings ?? {}, it.section) : null) ?? {}
        );
      } else if (method === "workspace/workspaceFolders") {
        result = [{ uri: toUri(this.opts.root), name: "bench" }];
      }
      this.send({ jsonrpc: "2.0", id: msg.id, result });
    }
  }

  private send(msg: unknown): void {
    const body = encoder.encode(JSON.stringify(msg));
    const head = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`);
    const out = new Uint8Array(head.length + body.length);
    out.set(head);
    out.set(body, head.length);
    this.writer.write(out).catch(() => {});
  }

  /** Sends a request and waits for its answer. */
  request<T = unknown>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    if (this.opts.verbose) console.error("->", method, JSON.stringify(params).slice(0, 200));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Sends a notification. */
  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /** Resolves when no progress is running (or after `ms`). */
  idle(ms: number): Promise<void> {
    if (this.progress.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.idleWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Opens a document (once). */
  open(path: string, languageId: string): void {
    if (this.opened.has(path)) return;
    this.opened.add(path);
    this.notify("textDocument/didOpen", {
      textDocument: { uri: toUri(path), languageId, version: 1, text: Deno.readTextFileSync(path) },
    });
  }

  /** The document's symbols, flattened in document order. */
  async documentSymbols(path: string): Promise<DocSymbol[]> {
    const r = await this.request<unknown[] | null>("textDocument/documentSymbol", {
      textDocument: { uri: toUri(path) },
    });
    const out: DocSymbol[] = [];
    const walk = (items: unknown[], containers: string[]) => {
      for (const raw of items) {
        const s = raw as {
          name: string;
          kind: number;
          selectionRange?: LspRange;
          location?: { range: LspRange };
          containerName?: string;
          children?: unknown[];
        };
        const at = s.selectionRange ?? s.location!.range;
        out.push({
          name: s.name,
          kind: s.kind,
          containers: s.selectionRange
            ? containers
            : (s.containerName ? s.containerName.split(".") : []),
          line0: at.start.line,
          char0: at.start.character,
        });
        if (s.children) walk(s.children, [...containers, s.name]);
      }
    };
    walk(r ?? [], []);
    return out;
  }

  /** References of the symbol at a position, declaration included. */
  async references(path: string, line0: number, char0: number): Promise<AbsSpot[]> {
    const r = await this.request<LspLocation[] | null>("textDocument/references", {
      textDocument: { uri: toUri(path) },
      position: { line: line0, character: char0 },
      context: { includeDeclaration: true },
    });
    return (r ?? []).map((l) => ({
      path: fromUri(l.uri),
      line: l.range.start.line + 1,
      column: l.range.start.character + 1,
    }));
  }

  /**
   * Call sites of the function at a position (`null` when the server has no call
   * hierarchy there).
   */
  async incomingCalls(path: string, line0: number, char0: number): Promise<AbsSpot[] | null> {
    const items = await this.request<unknown[] | null>("textDocument/prepareCallHierarchy", {
      textDocument: { uri: toUri(path) },
      position: { line: line0, character: char0 },
    });
    if (!items || items.length === 0) return null;
    const out: AbsSpot[] = [];
    for (const item of items) {
      const calls = await this.request<
        Array<{ from: { uri: string }; fromRanges: LspRange[] }> | null
      >("callHierarchy/incomingCalls", { item });
      for (const c of calls ?? []) {
        for (const r of c.fromRanges) {
          out.push({
            path: fromUri(c.from.uri),
            line: r.start.line + 1,
            column: r.start.character + 1,
          });
        }
      }
    }
    return out;
  }

  /** Shuts the server down. */
  async close(): Promise<void> {
    try {
      await Promise.race([
        this.request("shutdown", null),
        new Promise((r) => setTimeout(r, 3000)),
      ]);
      this.notify("exit", null);
    } catch {
      // Already gone.
    }
    await new Promise((r) => setTimeout(r, 200));
    try {
      this.child.kill("SIGTERM");
    } catch {
      // Exited.
    }
    await this.writer.close().catch(() => {});
    await this.child.status;
  }
}

/** A location with an absolute path. */
export interface AbsSpot {
  path: string;
  line: number;
  column: number;
}

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface LspLocation {
  uri: string;
  range: LspRange;
}

function lookupSection(settings: Record<string, unknown>, section: string): unknown {
  let cur: unknown = settings;
  for (const part of section.split(".")) {
    if (cur && typeof cur === "object" && part in (cur as Record<string, unknown>)) {
      cur = (cur as Record<string, unknown>)[part];
    } else return undefined;
  }
  return cur;
}

/** `file://` URI of an absolute path. */
export function toUri(path: string): string {
  return "file://" + path.split("/").map(encodeURIComponent).join("/");
}

/** Absolute path of a `file://` URI. */
export function fromUri(uri: string): string {
  return decodeURIComponent(uri.replace(/^file:\/\//, ""));
}
