/**
 * Deno KV persistence of the index, in generations.
 *
 * Layout (all keys under one KV file per project):
 * - `["format"]` — the layout version; a different one wipes the store.
 * - `["current"]` — `{generation}` of the last complete index; flipped atomically at commit.
 * - `["gen", n, …]` — the manifest of generation n (every file with size, mtime, hash), stored
 *   in parts because a KV value holds at most 64 KiB.
 * - `["blob", kind, hash, …]` — what parsing one file content produced (symbols, chunks,
 *   lexical term statistics, references and imports), content-addressed, written in parts with its header last.
 * - `["blobs", hash]` — the list of complete blobs, for garbage collection.
 * - `["lease"]` — which process is writing a new generation.
 *
 * A reader only follows `["current"]`, whose generation and blobs are never touched until a
 * newer generation is committed, so a writer killed at any moment leaves the previous index
 * readable; the next writer reuses the blobs already written and completes the new one.
 */

/** Bump when the stored shapes change; an older store is wiped and rebuilt. */
export const STORE_FORMAT = 3;

const PART_BYTES = 60_000;
const BATCH_BYTES = 700_000;

/** One file in a generation's manifest. */
export interface FileEntry {
  path: string;
  size: number;
  mtimeMs: number;
  /** Content hash (hex), "" when the file was skipped. */
  hash: string;
  /** Key of the file's parse results in the store, "" when the file was skipped. */
  blob: string;
  language: string;
  lines: number;
  symbols: number;
  chunks: number;
  /** Parse error or skip reason. */
  error?: string;
  skipped?: "binary" | "unreadable";
}

/** A committed (or in-progress) generation. */
export interface Manifest {
  generation: number;
  createdAt: string;
  elapsedMs: number;
  files: FileEntry[];
}

/** Default index folder: `$CODECTX_HOME`, `$XDG_CACHE_HOME/codectx` or `~/.cache/codectx`. */
export function defaultIndexHome(): string {
  const env = (k: string) => Deno.env.get(k);
  const home = env("CODECTX_HOME");
  if (home) return home;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return `${xdg}/codectx`;
  return `${env("HOME") ?? "."}/.cache/codectx`;
}

/** The index folder of one project root: `<home>/<basename>-<hash of real path>`. */
export async function indexDirFor(root: string, home = defaultIndexHome()): Promise<string> {
  const digest = await sha256Hex(new TextEncoder().encode(root));
  const base = root.split("/").filter(Boolean).pop() ?? "root";
  return `${home}/${base.replace(/[^\w.-]/g, "_")}-${digest.slice(0, 12)}`;
}

/** Hex SHA-256 of some bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let s = "";
  for (const b of d) s += b.toString(16).padStart(2, "0");
  return s;
}

/** The persisted index of one project. */
export class Store {
  private constructor(readonly kv: Deno.Kv, readonly dir: string) {}

  /** Opens (creating) the store in `dir`. */
  static async open(dir: string): Promise<Store> {
    await Deno.mkdir(dir, { recursive: true });
    const kv = await Deno.openKv(`${dir}/index.kv`);
    const store = new Store(kv, dir);
    const format = await kv.get<number>(["format"]);
    if (format.value !== STORE_FORMAT) {
      await store.wipe();
      await kv.set(["format"], STORE_FORMAT);
    }
    return store;
  }

  close(): void {
    try {
      this.kv.close();
    } catch {
      // already closed
    }
  }

  private async wipe(): Promise<void> {
    const keys: Deno.KvKey[] = [];
    for await (const e of this.kv.list({ prefix: [] })) keys.push(e.key);
    await this.deleteKeys(keys);
  }

  /** The generation number of the last complete index, or null. */
  async currentGeneration(): Promise<number | null> {
    const cur = await this.kv.get<{ generation: number }>(["current"]);
    return cur.value?.generation ?? null;
  }

  /** Reads the manifest of the current generation, or null when nothing was committed. */
  async readCurrent(): Promise<Manifest | null> {
    const gen = await this.currentGeneration();
    if (gen === null) return null;
    return await this.getLarge<Manifest>(["gen", gen]);
  }

  /** Writes a manifest for a new generation (not yet visible to readers). */
  async writeManifest(manifest: Manifest): Promise<void> {
    await this.putLarge(["gen", manifest.generation], manifest);
  }

  /**
   * Makes `generation` the current one, atomically, provided the current one is still
   * `expected` (another writer did not commit meanwhile).
   */
  async commit(generation: number, expected: number | null): Promise<boolean> {
    const cur = await this.kv.get(["current"]);
    const prev = (cur.value as { generation: number } | null)?.generation ?? null;
    if (prev !== expected) return false;
    const res = await this.kv.atomic().check(cur).set(["current"], { generation }).commit();
    return res.ok;
  }

  /** Whether a complete blob exists. */
  async hasBlob(hash: string): Promise<boolean> {
    return (await this.kv.get(["blobs", hash])).value !== null;
  }

  /** Writes a file's parse results under its content hash, header last. */
  async writeBlob(hash: string, parts: Record<string, unknown>): Promise<void> {
    for (const [kind, value] of Object.entries(parts)) {
      await this.putLarge(["blob", kind, hash], value);
    }
    await this.kv.set(["blobs", hash], Object.keys(parts));
  }

  /** Reads one part (`"symbols"`, `"chunks"`, …) of a blob. */
  async readBlob<T>(kind: string, hash: string): Promise<T | null> {
    return await this.getLarge<T>(["blob", kind, hash]);
  }

  /** Reads one part of every complete blob, in one pass over the store. */
  async readAllBlobs<T>(kind: string, wanted: Set<string>): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    const decoder = new TextDecoder();
    let hash = "";
    let buf: Uint8Array[] = [];
    let expected = -1;
    const flush = () => {
      if (hash && buf.length === expected && wanted.has(hash)) {
        out.set(hash, JSON.parse(decoder.decode(concat(buf))) as T);
      }
    };
    for await (const e of this.kv.list<Uint8Array | number>({ prefix: ["blob", kind] })) {
      const [, , h, tag] = e.key as [string, string, string, string, number?];
      if (h !== hash) {
        flush();
        hash = h;
        buf = [];
        expected = -1;
      }
      if (tag === "n") expected = e.value as number;
      else buf.push(e.value as Uint8Array);
    }
    flush();
    return out;
  }

  /** Deletes every generation but `keep` (partial manifests of runs that were cut off). */
  async dropGenerationsExcept(keep: number | null): Promise<void> {
    const keys: Deno.KvKey[] = [];
    for await (const e of this.kv.list({ prefix: ["gen"] })) {
      if (e.key[1] !== keep) keys.push(e.key);
    }
    await this.deleteKeys(keys);
  }

  /** Deletes generations other than the current one and blobs that it does not use. */
  async collectGarbage(): Promise<{ generations: number; blobs: number }> {
    const current = await this.currentGeneration();
    const manifest = current === null ? null : await this.readCurrent();
    const used = new Set(manifest?.files.map((f) => f.blob) ?? []);
    let gens = 0;
    const genKeys: Deno.KvKey[] = [];
    const seen = new Set<number>();
    for await (const e of this.kv.list({ prefix: ["gen"] })) {
      const g = e.key[1] as number;
      if (g === current) continue;
      genKeys.push(e.key);
      if (!seen.has(g)) {
        seen.add(g);
        gens++;
      }
    }
    await this.deleteKeys(genKeys);
    // Blobs: complete ones not in use, and parts of incomplete ones from killed runs.
    const complete = new Set<string>();
    const dropped: string[] = [];
    for await (const e of this.kv.list<string[]>({ prefix: ["blobs"] })) {
      const h = e.key[1] as string;
      complete.add(h);
      if (!used.has(h)) dropped.push(h);
    }
    const blobKeys: Deno.KvKey[] = dropped.map((h) => ["blobs", h]);
    for await (const e of this.kv.list({ prefix: ["blob"] }, { batchSize: 1000 })) {
      const h = e.key[2] as string;
      if (!used.has(h) || !complete.has(h)) blobKeys.push(e.key);
    }
    await this.deleteKeys(blobKeys);
    return { generations: gens, blobs: dropped.length };
  }

  /**
   * Takes the writer lease. A lease held by a live process of this machine is respected;
   * one left by a dead process is taken over.
   */
  async acquireLease(): Promise<boolean> {
    const me = { pid: Deno.pid, host: Deno.hostname(), at: Date.now() };
    const cur = await this.kv.get<typeof me>(["lease"]);
    if (cur.value && cur.value.pid !== me.pid && isAlive(cur.value.pid, cur.value.host)) {
      return false;
    }
    const res = await this.kv.atomic().check(cur).set(["lease"], me).commit();
    return res.ok;
  }

  async releaseLease(): Promise<void> {
    const cur = await this.kv.get<{ pid: number }>(["lease"]);
    if (cur.value?.pid === Deno.pid) await this.kv.atomic().check(cur).delete(["lease"]).commit();
  }

  /** Who holds the lease, if anyone alive. */
  async leaseHolder(): Promise<number | null> {
    const cur = await this.kv.get<{ pid: number; host: string }>(["lease"]);
    if (!cur.value || !isAlive(cur.value.pid, cur.value.host)) return null;
    return cur.value.pid;
  }

  /** Stores a JSON value of any size in 60 KB parts, the part count last. */
  async putLarge(prefix: Deno.KvKey, value: unknown): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    const n = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
    let op = this.kv.atomic();
    let pending = 0;
    for (let i = 0; i < n; i++) {
      const part = bytes.subarray(i * PART_BYTES, (i + 1) * PART_BYTES);
      op = op.set([...prefix, "p", i], part);
      pending += part.length + 64;
      if (pending >= BATCH_BYTES) {
        await mustCommit(op);
        op = this.kv.atomic();
        pending = 0;
      }
    }
    op = op.set([...prefix, "n"], n);
    await mustCommit(op);
  }

  /** Reads a value written by `putLarge`; null when absent or incomplete. */
  async getLarge<T>(prefix: Deno.KvKey): Promise<T | null> {
    const head = await this.kv.get<number>([...prefix, "n"]);
    if (head.value === null) return null;
    const parts: Uint8Array[] = [];
    for await (const e of this.kv.list<Uint8Array>({ prefix: [...prefix, "p"] })) {
      parts.push(e.value);
    }
    if (parts.length !== head.value) return null;
    return JSON.parse(new TextDecoder().decode(concat(parts))) as T;
  }

  private async deleteKeys(keys: Deno.KvKey[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 500) {
      let op = this.kv.atomic();
      for (const k of keys.slice(i, i + 500)) op = op.delete(k);
      await mustCommit(op);
    }
  }
}

async function mustCommit(op: Deno.AtomicOperation): Promise<void> {
  const res = await op.commit();
  if (!res.ok) throw new Error("index store write failed; retry the indexing");
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const len = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function isAlive(pid: number, host: string): boolean {
  if (host !== Deno.hostname()) return true;
  if (pid === Deno.pid) return true;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    // No /proc entry: dead on Linux; elsewhere assume alive only if /proc is missing.
    try {
      Deno.statSync("/proc/self");
      return false;
    } catch {
      return true;
    }
  }
}
