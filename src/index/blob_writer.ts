/**
 * Blob writes off the parse path: encoded blobs gather into a batch that goes to the store
 * in few atomic commits while parsing goes on; one batch is written at a time, and a lane
 * that adds to a full batch waits only while the previous batch is still being written.
 * The first failure (a full disk) is kept and thrown by the next `add` or by `flush`,
 * never left as an unhandled rejection.
 *
 * @module
 */

import type { Store } from "../store/kv.ts";

/** Bytes gathered before a batch is written (a few store commits' worth). */
const BATCH_BYTES = 2_000_000;

/** A blob as the store takes it: its key and its encoded parts. */
interface EncodedBlob {
  hash: string;
  parts: Record<string, Uint8Array>;
}

/** Batches blob writes to one store. */
export class BlobWriter {
  private batch: EncodedBlob[] = [];
  private bytes = 0;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(private readonly store: Store) {}

  /** Queues a blob; starts writing the batch once it is full. */
  async add(hash: string, parts: Record<string, Uint8Array>): Promise<void> {
    this.throwIfFailed();
    this.batch.push({ hash, parts });
    for (const p of Object.values(parts)) this.bytes += p.length;
    if (this.bytes >= BATCH_BYTES) {
      // Back-pressure: at most one batch being written and one gathering.
      await this.writing;
      this.throwIfFailed();
      this.startWrite();
    }
  }

  /** Writes what is queued and waits for every write; throws the first that failed. */
  async flush(): Promise<void> {
    await this.writing;
    this.throwIfFailed();
    this.startWrite();
    await this.writing;
    this.throwIfFailed();
  }

  private startWrite(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.bytes = 0;
    this.writing = this.store.writeEncodedBlobs(batch).catch((err) => {
      this.failure ??= err;
    });
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}
