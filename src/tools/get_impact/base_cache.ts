/**
 * The definitions of a file as it was at a git revision, kept by git's blob id in the
 * index folder (`impact_base.json`): a revision's files never change, and an assistant asks
 * `base: HEAD` again after each edit, so each base side is parsed once. The entries are
 * those of this codectx and index format (another reads none); the least recently used go
 * past {@link KEEP}. Written whole to a temporary file and renamed (a reader sees the old file
 * or the new one).
 *
 * @module
 */

import { VERSION } from "../../version.ts";
import { STORE_FORMAT } from "../../store/kv.ts";
import type { SymbolKind, SymbolRecord } from "../../types.ts";

/** Most files kept (their definitions: ~100 bytes each). */
export const KEEP = 4000;

const FILE = "impact_base.json";

/** One definition as kept: what a changed symbol is told and matched by. */
type Row = [
  name: string,
  qualifiedName: string,
  kind: SymbolKind,
  line: number,
  startLine: number,
  endLine: number,
  signature: string,
  parent: string | null,
];

interface Entry {
  used: number;
  rows: Row[];
}

interface Saved {
  format: string;
  entries: Record<string, Entry>;
}

const FORMAT = `${VERSION}/${STORE_FORMAT}`;

/** The base sides' definitions of one index folder. */
export class BaseDefinitions {
  private changed = false;
  private readonly now = Date.now();

  private constructor(private readonly dir: string, private readonly entries: Map<string, Entry>) {}

  /** The cache of index folder `dir` (empty when there is none or it is of another format). */
  static async open(dir: string): Promise<BaseDefinitions> {
    const entries = new Map<string, Entry>();
    try {
      const saved = JSON.parse(await Deno.readTextFile(`${dir}/${FILE}`)) as Saved;
      if (saved.format === FORMAT) {
        for (const [k, e] of Object.entries(saved.entries)) entries.set(k, e);
      }
    } catch {
      // none yet, or unreadable: parsed again
    }
    return new BaseDefinitions(dir, entries);
  }

  /** Whether the definitions of blob `blob` in `language` are kept. */
  has(blob: string, language: string): boolean {
    return this.entries.has(`${language}:${blob}`);
  }

  /** The definitions of blob `blob` read as `path` in `language`, when kept. */
  get(blob: string, path: string, language: string): SymbolRecord[] | undefined {
    const e = this.entries.get(`${language}:${blob}`);
    if (!e) return undefined;
    if (e.used !== this.now) {
      e.used = this.now;
      this.changed = true;
    }
    return e.rows.map((
      [name, qualifiedName, kind, line, startLine, endLine, signature, parent],
    ) => ({
      name,
      qualifiedName,
      kind,
      file: path,
      line,
      startLine,
      endLine,
      signature,
      doc: "",
      parent,
      language,
    }));
  }

  /** Keeps the definitions of blob `blob` in `language`. */
  put(blob: string, language: string, symbols: readonly SymbolRecord[]): void {
    this.entries.set(`${language}:${blob}`, {
      used: this.now,
      rows: symbols.map((s) => [
        s.name,
        s.qualifiedName,
        s.kind,
        s.line,
        s.startLine,
        s.endLine,
        s.signature,
        s.parent,
      ]),
    });
    this.changed = true;
  }

  /** Writes the cache when it changed (a folder that cannot be written keeps none). */
  async save(): Promise<void> {
    if (!this.changed) return;
    const kept = [...this.entries].sort((a, b) => b[1].used - a[1].used).slice(0, KEEP);
    const saved: Saved = { format: FORMAT, entries: Object.fromEntries(kept) };
    const tmp = `${this.dir}/${FILE}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(tmp, JSON.stringify(saved));
      await Deno.rename(tmp, `${this.dir}/${FILE}`);
      this.changed = false;
    } catch {
      await Deno.remove(tmp).catch(() => {});
    }
  }
}
