/**
 * Values in parts: Deno KV holds at most 64 KiB in one value and 1,000 mutations (80 KiB of
 * keys) in one atomic commit, so a large value is stored as numbered parts under its key
 * with the part count last (`[…key, "p", i]`, then `[…key, "n"]`), and many writes go out
 * in as few commits as those limits allow. A reader that finds the count and every part has
 * the whole value; a writer cut off before the count leaves a value that reads as absent.
 *
 * @module
 */

import { concatBytes } from "../util/bytes.ts";

/** Bytes in one stored part. */
export const PART_BYTES = 60_000;
/** Bytes of values (with a per-key allowance) gathered into one commit. */
const BATCH_BYTES = 700_000;
/** Keys per atomic commit (Deno KV allows 1,000 mutations and 80 KiB of keys in one). */
const MAX_KEYS_PER_COMMIT = 500;
/** What a key and a mutation's bookkeeping are counted as, beside the value. */
const KEY_ALLOWANCE = 128;

/**
 * Sets and deletes gathered into atomic commits in the order they were asked for; a commit
 * goes out before the next mutation would pass the limits, the rest on {@link flush}.
 *
 * @example
 * ```ts
 * const batch = new Batch(kv, async (op) => { await op.commit(); });
 * for (const [i, part] of splitParts(bytes).entries()) await batch.set(["v", "p", i], part, part.length);
 * await batch.set(["v", "n"], 1, 8);
 * await batch.flush();
 * ```
 */
export class Batch {
  private op: Deno.AtomicOperation;
  private bytes = 0;
  private keys = 0;

  constructor(
    private readonly kv: Deno.Kv,
    private readonly commit: (op: Deno.AtomicOperation) => Promise<void>,
  ) {
    this.op = kv.atomic();
  }

  /** Sets `key` to `value` (`size`: its bytes, for the batch's limit). */
  async set(key: Deno.KvKey, value: unknown, size: number): Promise<void> {
    await this.room(size);
    this.op = this.op.set(key, value);
  }

  /** Deletes `key`. */
  async delete(key: Deno.KvKey): Promise<void> {
    await this.room(0);
    this.op = this.op.delete(key);
  }

  /** Commits what is gathered. */
  async flush(): Promise<void> {
    if (this.keys === 0) return;
    const op = this.op;
    this.op = this.kv.atomic();
    this.bytes = this.keys = 0;
    await this.commit(op);
  }

  private async room(size: number): Promise<void> {
    if (this.keys >= MAX_KEYS_PER_COMMIT || (this.keys > 0 && this.bytes + size > BATCH_BYTES)) {
      await this.flush();
    }
    this.bytes += size + KEY_ALLOWANCE;
    this.keys++;
  }
}

/** `bytes` cut into stored parts (one empty part for no bytes). */
export function splitParts(bytes: Uint8Array): Uint8Array[] {
  const n = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) out.push(bytes.subarray(i * PART_BYTES, (i + 1) * PART_BYTES));
  return out;
}

/** Writes `bytes` in parts under `prefix`, the part count last. */
export async function setParts(batch: Batch, prefix: Deno.KvKey, bytes: Uint8Array): Promise<void> {
  const parts = splitParts(bytes);
  for (let i = 0; i < parts.length; i++) {
    await batch.set([...prefix, "p", i], parts[i], parts[i].length);
  }
  await batch.set([...prefix, "n"], parts.length, 8);
}

/** The bytes stored in parts under `prefix`; null when absent or incomplete. */
export async function readParts(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Uint8Array | null> {
  const head = await kv.get<number>([...prefix, "n"]);
  if (head.value === null) return null;
  const parts: Uint8Array[] = [];
  for await (const e of kv.list<Uint8Array>({ prefix: [...prefix, "p"] })) parts.push(e.value);
  if (parts.length !== head.value) return null;
  return concatBytes(parts);
}

/**
 * Every complete value stored in parts one key below `prefix` (`[…prefix, id, "p", i]` and
 * `[…prefix, id, "n"]`), in key order and one listing, each handed to `fn` as soon as its
 * parts are read (one value in hand at a time); incomplete ones are passed over.
 */
export async function eachParts(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  fn: (id: string, bytes: Uint8Array) => void,
): Promise<void> {
  const at = prefix.length;
  let id = "";
  let buf: Uint8Array[] = [];
  let expected = -1;
  const flush = () => {
    if (id && buf.length === expected) fn(id, concatBytes(buf));
  };
  for await (const e of kv.list<Uint8Array | number>({ prefix })) {
    const key = String(e.key[at]);
    if (key !== id) {
      flush();
      id = key;
      buf = [];
      expected = -1;
    }
    if (e.key[at + 1] === "n") expected = e.value as number;
    else buf.push(e.value as Uint8Array);
  }
  flush();
}

const jsonDecoder = new TextDecoder();

/** A stored JSON value. */
export function parseJson<T>(bytes: Uint8Array): T {
  return JSON.parse(jsonDecoder.decode(bytes)) as T;
}
