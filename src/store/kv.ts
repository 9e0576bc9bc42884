/**
 * Deno KV persistence of the index, in generations.
 *
 * Layout (all keys under one KV file per project):
 * - `["format"]` — the layout version; a different one rebuilds the store (`format.ts`).
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

import { CodectxError } from "../errors.ts";
import { isLocked, keepReserve, releaseReserve, storeWriteError } from "./disk.ts";
import { formatChange } from "./format.ts";
import { requireKv } from "../util/kv_check.ts";
import {
  isAlive,
  isMine,
  type Lease,
  myLease,
  myPin,
  type Pin,
  pinKey,
  PINS_PER_PROCESS,
} from "./lease.ts";
import { Batch, eachParts, parseJson, readParts, setParts } from "./parts.ts";

/** Sees a blob's key and encoded parts as they are written (see `Store.watchBlobs`). */
export type BlobWatcher = (hash: string, parts: Readonly<Record<string, Uint8Array>>) => void;

/**
 * Bump when the stored shapes change, or what they hold (an older index would answer less);
 * an older store is wiped and rebuilt. 5: the declared types gained contextual types
 * (object literals, parameters of functions typed where they stand, type arguments of bases).
 * 6: the plural stemmer keeps the `e` of `-zes` (`sizes` → `size`, `util/tokens.ts`).
 * 7: the `terms` part is binary (`encodeTerms` in `index/terms.ts`), not JSON.
 * 8: the `terms` part's numbers are 16-bit words where they all fit ("TRM2").
 * 9: JS/TS `f.call(…)`, `f.apply(…)` are calls of `f`; `X.prototype.m` reads X's member `m`.
 * 10: a Go conversion to a predeclared type (`uint32(x)`) is no call.
 * 11: the graph part keeps receivers and declared types as typed records (`facts/codec.ts`),
 *     not as marked strings.
 * 12: the graph part keeps each import statement's lines (`@import.statement`).
 * 13: a function declared inside an anonymous one (`module.exports = function () {…}`) is
 *     referenced where its name is that scope's local (`parse/references.ts`).
 * 14: Python: a test's bare parameter holds what the pytest fixture of its name gives
 *     (`@local.injected`), a function without a return annotation what it returns.
 * 15: C/C++ file-scope tables and instances are symbols (`cmd_table`, `format_table`); a C
 *     prototype's name is a `declaration`, not a `read`.
 * 16: TypeScript's `import x = require("y")` is an import.
 * 17: a name in JavaScript's `module.exports = { a, b }` is an `export_list` entry, not a `read`. */
export const STORE_FORMAT = 17;

/** How often a checked commit is tried while the database is locked (~3 s at most in all). */
const LOCKED_TRIES = 100;

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
  skipped?: "binary" | "unreadable" | "too_large" | "minified";
}

/** A committed (or in-progress) generation. */
export interface Manifest {
  generation: number;
  createdAt: string;
  elapsedMs: number;
  files: FileEntry[];
}

/** The persisted index of one project. */
export class Store {
  private constructor(readonly kv: Deno.Kv, readonly dir: string) {}

  /**
   * Blob writes leave `["dirty"]` until a garbage collection has run after them, so that
   * only a store a writer left mid-run (killed, failed) needs the full scan for parts of
   * incomplete blobs; `dirtyToken` tells this process's mark from one left before.
   */
  /** Who is shown each blob {@link writeEncodedBlobs} writes (see {@link watchBlobs}). */
  private readonly blobWatchers = new Set<BlobWatcher>();

  /**
   * Shows `watch` every blob {@link writeEncodedBlobs} is given from now on (its key and
   * encoded parts, before they are written), until the returned function is called: what
   * an indexing run writes can be gathered as it streams by instead of read back later.
   */
  watchBlobs(watch: BlobWatcher): () => void {
    this.blobWatchers.add(watch);
    return () => this.blobWatchers.delete(watch);
  }

  private readonly dirtyToken = crypto.randomUUID();
  private dirtyMarked: Promise<void> | null = null;

  /** Marks the store dirty before this process's first blob write. */
  private markDirty(): Promise<void> {
    this.dirtyMarked ??= (async () => {
      const cur = await this.kv.get<string>(["dirty"]);
      // A mark left by another run stays: its incomplete parts still need the full scan
      // (and so does one an earlier, unfinished run of this process left).
      if (cur.value === this.dirtyToken) this.fullScanNext = true;
      if (cur.value === null) await this.written(this.kv.set(["dirty"], this.dirtyToken));
    })();
    return this.dirtyMarked;
  }

  /** Opens (creating) the store in `dir`. */
  static async open(dir: string): Promise<Store> {
    requireKv();
    await Deno.mkdir(dir, { recursive: true });
    const kv = await Deno.openKv(`${dir}/index.kv`);
    const store = new Store(kv, dir);
    await keepReserve(dir);
    const found = (await kv.get(["format"])).value;
    const hasData = found !== STORE_FORMAT && !(await kv.list({ prefix: [] }).next()).done;
    const change = formatChange(dir, found, hasData, STORE_FORMAT);
    if (change) {
      if (change.message) console.error(change.message);
      await store.wipe();
      await store.written(kv.set(["format"], STORE_FORMAT));
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

  /**
   * Reads the manifest of the current generation, or null when nothing was committed. The
   * generation read is pinned for this process ({@link pinGeneration}): its blobs outlive
   * later commits of other processes while this one may still load them.
   */
  async readCurrent(): Promise<Manifest | null> {
    const gen = await this.currentGeneration();
    if (gen === null) return null;
    await this.pinGeneration(gen);
    return await this.getLarge<Manifest>(["gen", gen]);
  }

  /** Generations this process has read, newest last (at most {@link PINS_PER_PROCESS}). */
  private pins: number[] = [];

  /**
   * Pins a generation for this process: garbage collection (here or in any process) keeps
   * the generations a live process pinned — the one it serves and the one before, which an
   * in-flight request may still be loading. A dead process's pin is dropped. Best effort:
   * on a read-only index folder nothing is pinned (and nothing can be collected either).
   */
  async pinGeneration(generation: number): Promise<void> {
    if (this.pins.includes(generation)) return;
    this.pins = [...this.pins, generation].slice(-PINS_PER_PROCESS);
    await this.kv.set(pinKey(), myPin(this.pins)).catch(() => {});
  }

  /** Generations pinned by live processes; pins of dead ones are deleted. */
  private async pinnedGenerations(): Promise<Set<number>> {
    const out = new Set<number>();
    const dead: Deno.KvKey[] = [];
    for await (const e of this.kv.list<Pin>({ prefix: ["pin"] })) {
      if (isAlive(e.value)) { for (const g of e.value.generations) out.add(g); }
      else dead.push(e.key);
    }
    await this.deleteKeys(dead);
    return out;
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
    const res = await this.checkedWrite(() =>
      this.kv.atomic().check(cur).set(["current"], { generation }).commit()
    );
    return res.ok;
  }

  /** Whether a complete blob exists. */
  async hasBlob(hash: string): Promise<boolean> {
    return (await this.kv.get(["blobs", hash])).value !== null;
  }

  /** Writes a file's parse results under its content hash, header last. */
  async writeBlob(hash: string, parts: Record<string, unknown>): Promise<void> {
    await this.markDirty();
    for (const [kind, value] of Object.entries(parts)) {
      await this.putLarge(["blob", kind, hash], value);
    }
    await this.written(this.kv.set(["blobs", hash], Object.keys(parts)));
  }

  /**
   * Writes blobs whose parts are already JSON-encoded (as `writeBlob` would encode them) in
   * as few atomic commits as the store's limits allow. A blob's complete mark follows its
   * parts, in the same commit or a later one.
   */
  async writeEncodedBlobs(
    blobs: ReadonlyArray<{ hash: string; parts: Record<string, Uint8Array> }>,
  ): Promise<void> {
    for (const watch of this.blobWatchers) {
      for (const { hash, parts } of blobs) watch(hash, parts);
    }
    await this.markDirty();
    const batch = this.batch();
    for (const { hash, parts } of blobs) {
      for (const [kind, data] of Object.entries(parts)) {
        await setParts(batch, ["blob", kind, hash], data);
      }
      await batch.set(["blobs", hash], Object.keys(parts), 64);
    }
    await batch.flush();
  }

  /** Reads one part (`"symbols"`, `"chunks"`, …) of a blob. */
  async readBlob<T>(kind: string, hash: string): Promise<T | null> {
    const bytes = await this.readBlobBytes(kind, hash);
    return bytes === null ? null : parseJson<T>(bytes);
  }

  /** One part of a blob as stored (JSON or a binary layout), or null when absent. */
  async readBlobBytes(kind: string, hash: string): Promise<Uint8Array | null> {
    return await readParts(this.kv, ["blob", kind, hash]);
  }

  /** Reads one part of every complete blob, in one pass over the store. */
  async readAllBlobs<T>(kind: string, wanted: Set<string>): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    await this.eachBlob<T>(kind, wanted, (hash, value) => out.set(hash, value));
    return out;
  }

  /**
   * Reads one part of every complete blob in `wanted`, in one pass over the store, handing
   * each to `fn` as it is read (only one blob's data is in hand at a time).
   */
  async eachBlob<T>(
    kind: string,
    wanted: Set<string>,
    fn: (hash: string, value: T) => void,
  ): Promise<void> {
    await this.eachBlobBytes(kind, wanted, (hash, bytes) => fn(hash, parseJson<T>(bytes)));
  }

  /**
   * {@link eachBlob} without decoding: each part's bytes as stored (JSON, or a binary
   * layout such as the `terms` part's), for a reader that decodes them itself.
   */
  async eachBlobBytes(
    kind: string,
    wanted: Set<string>,
    fn: (hash: string, bytes: Uint8Array) => void,
  ): Promise<void> {
    await eachParts(this.kv, ["blob", kind], (hash, bytes) => {
      if (wanted.has(hash)) fn(hash, bytes);
    });
  }

  /**
   * Deletes every generation but `keep` and those a live process pinned (what is left is
   * partial manifests of runs that were cut off, and generations nobody serves).
   */
  async dropGenerationsExcept(keep: number | null): Promise<void> {
    const pinned = await this.pinnedGenerations();
    const keys: Deno.KvKey[] = [];
    for await (const e of this.kv.list({ prefix: ["gen"] })) {
      if (e.key[1] !== keep && !pinned.has(e.key[1] as number)) keys.push(e.key);
    }
    await this.deleteKeys(keys);
  }

  /**
   * Deletes generations other than the current one, the one before it and those a live
   * process pinned ({@link pinGeneration}), and blobs that none of them uses. The one
   * before stays so that a reader still loading it when the flip happened finds every
   * blob; a pinned one stays for as long as the process that serves it lives. `held`: the
   * manifests the caller already holds, by generation (they are not read again).
   */
  async collectGarbage(
    held: ReadonlyMap<number, Manifest> = new Map(),
  ): Promise<{ generations: number; blobs: number }> {
    const current = await this.currentGeneration();
    // Each generation's keys, from one listing of every manifest part.
    const gens = new Map<number, Deno.KvKey[]>();
    for await (const e of this.kv.list({ prefix: ["gen"] })) {
      const g = e.key[1] as number;
      const keys = gens.get(g);
      if (keys) keys.push(e.key);
      else gens.set(g, [e.key]);
    }
    const previous =
      [...gens.keys()].filter((g) => current !== null && g < current).sort((a, b) => b - a)
        .find(() => true) ?? null;
    const pinned = await this.pinnedGenerations();
    const kept = [current, previous, ...[...pinned].filter((g) => gens.has(g))].filter((
      g,
    ): g is number => g !== null);
    const used = new Set<string>();
    for (const g of new Set(kept)) {
      // A manifest the caller holds (the run that just committed) is not read back.
      const m = held.get(g) ?? await this.getLarge<Manifest>(["gen", g]);
      for (const f of m?.files ?? []) used.add(f.blob);
    }
    const genKeys: Deno.KvKey[] = [];
    let dropped = 0;
    for (const [g, keys] of gens) {
      if (kept.includes(g)) continue;
      genKeys.push(...keys);
      dropped++;
    }
    await this.deleteKeys(genKeys);
    // Only a run that did not finish can have left parts without their complete mark.
    const dirty = await this.kv.get<string>(["dirty"]);
    const full = dirty.value !== null && dirty.value !== this.dirtyToken;
    const blobs = await this.dropBlobsExcept(used, full || this.fullScanNext);
    if (dirty.value !== null) {
      await this.checkedWrite(() => this.kv.atomic().check(dirty).delete(["dirty"]).commit());
    }
    this.dirtyMarked = null;
    this.fullScanNext = false;
    return { generations: dropped, blobs };
  }

  /** Set by a failed run: the next collection scans every blob part. */
  private fullScanNext = false;

  /**
   * Deletes every blob not in `used`, and the parts of incomplete ones (a run killed or
   * failed mid-write). Returns how many complete blobs went.
   */
  async dropBlobsExcept(used: ReadonlySet<string>, full = true): Promise<number> {
    const complete = new Set<string>();
    const dropped: Array<[string, string[]]> = [];
    for await (const e of this.kv.list<string[]>({ prefix: ["blobs"] })) {
      const h = e.key[1] as string;
      complete.add(h);
      if (!used.has(h)) dropped.push([h, e.value]);
    }
    const blobKeys: Deno.KvKey[] = dropped.map(([h]) => ["blobs", h]);
    if (full) {
      for await (const e of this.kv.list({ prefix: ["blob"] }, { batchSize: 1000 })) {
        const h = e.key[2] as string;
        if (!used.has(h) || !complete.has(h)) blobKeys.push(e.key);
      }
    } else {
      // Every part of a complete blob is under one of the kinds its mark lists.
      for (const [h, kinds] of dropped) {
        for (const kind of kinds) {
          for await (const e of this.kv.list({ prefix: ["blob", kind, h] })) blobKeys.push(e.key);
        }
      }
    }
    await this.deleteKeys(blobKeys);
    return dropped.length;
  }

  /**
   * After a failed run: removes what it wrote (blobs and manifests no committed generation
   * uses), so that a full disk gets its space back for the next run. Best effort: it may
   * fail on the same disk, and the next run cleans up too.
   */
  async discardUncommitted(): Promise<void> {
    await releaseReserve(this.dir);
    this.fullScanNext = true;
    try {
      await this.collectGarbage();
    } catch {
      // the next successful run collects the rest
    }
    await keepReserve(this.dir);
  }

  /**
   * Takes the writer lease. A lease held by a live process of this machine is respected;
   * one left by a dead process (or by a process whose pid was reused since: the start
   * time differs) is taken over.
   */
  async acquireLease(): Promise<boolean> {
    const cur = await this.kv.get<Lease>(["lease"]);
    if (cur.value && !isMine(cur.value) && isAlive(cur.value)) return false;
    const res = await this.checkedWrite(() =>
      this.kv.atomic().check(cur).set(["lease"], myLease()).commit()
    );
    return res.ok;
  }

  async releaseLease(): Promise<void> {
    const cur = await this.kv.get<Lease>(["lease"]);
    if (cur.value && isMine(cur.value)) {
      await this.checkedWrite(() => this.kv.atomic().check(cur).delete(["lease"]).commit());
    }
  }

  /**
   * Takes the writer lease or fails with `busy` (503 on every surface), naming the process
   * that holds it.
   */
  async holdLease(): Promise<void> {
    if (await this.acquireLease()) return;
    const pid = await this.leaseHolder();
    throw new CodectxError(
      "busy",
      `another codectx process${
        pid === null ? "" : ` (pid ${pid})`
      } is indexing this project; retry when it is done or stop it`,
    );
  }

  /** Who holds the lease, if anyone alive. */
  async leaseHolder(): Promise<number | null> {
    const cur = await this.kv.get<Lease>(["lease"]);
    if (!cur.value || !isAlive(cur.value)) return null;
    return cur.value.pid;
  }

  /** Stores a JSON value of any size in parts (`parts.ts`), the part count last. */
  async putLarge(prefix: Deno.KvKey, value: unknown): Promise<void> {
    const batch = this.batch();
    await setParts(batch, prefix, new TextEncoder().encode(JSON.stringify(value)));
    await batch.flush();
  }

  /** Reads a value written by `putLarge`; null when absent or incomplete. */
  async getLarge<T>(prefix: Deno.KvKey): Promise<T | null> {
    const bytes = await readParts(this.kv, prefix);
    return bytes === null ? null : parseJson<T>(bytes);
  }

  private async deleteKeys(keys: Deno.KvKey[]): Promise<void> {
    const batch = this.batch();
    for (const k of keys) await batch.delete(k);
    await batch.flush();
  }

  /** Writes gathered into as few commits as KV allows, each one's failure said plainly. */
  private batch(): Batch {
    return new Batch(this.kv, async (op) => {
      const res = await this.written(op.commit());
      if (!res.ok) throw new Error("index store write failed; retry the indexing");
    });
  }

  /**
   * Runs a commit with a `check` again while SQLite says "database is locked": unlike a plain
   * write it cannot wait for another process's write and fails at once (a watcher's commit
   * beside another server's pin). After {@link LOCKED_TRIES} tries it fails with `busy`.
   */
  private async checkedWrite<T>(commit: () => Promise<T>): Promise<T> {
    for (let tries = 1;; tries++) {
      try {
        return await commit();
      } catch (err) {
        if (!isLocked(err) || tries >= LOCKED_TRIES) throw storeWriteError(err, this.dir);
        await new Promise((r) => setTimeout(r, 2 + Math.random() * Math.min(tries, 20) * 3));
      }
    }
  }

  /**
   * Awaits a write, turning the file system's refusals into one sentence: a full disk or a
   * read-only index folder (`unavailable`), with what to do.
   */
  async written<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (err) {
      throw storeWriteError(err, this.dir);
    }
  }
}
