/**
 * What is built once for an owner and lives as long as it: the one home of every cache of a
 * project, a generation or one of its tables. A module declares a {@link Slot} beside the
 * function that builds its value; the owner carries a {@link Memo}; nothing is kept in a
 * module-level map keyed by the owner, so what an owner holds can be listed (`held()`) and
 * goes when the owner goes (or at once, with `dispose()`).
 *
 * A memo may look back at the memo of the owner before it (the previous generation): a slot's
 * `make` is given that one's value, to carry over what did not change (the graph parts of
 * unchanged files). The look-back is dropped with {@link Memo.forgetPrevious}.
 *
 * @module
 */

/**
 * A value an owner of type `O` holds: its name (for `held()`), how it is made from the owner
 * (and the previous owner's value, when there was one and it was made), and how it is let go.
 */
export interface Slot<O, T> {
  readonly name: string;
  make(owner: O, previous: T | undefined): T;
  /** Frees what the value holds beyond memory (workers, files); called by `dispose()`. */
  dispose?(value: T): void;
}

/**
 * Declares a slot.
 *
 * @example
 * ```ts
 * const LENGTH = slot("length", (owner: { text: string }) => owner.text.length);
 * const memo = new Memo({ text: "abc" });
 * memo.get(LENGTH); // 3, made once
 * ```
 */
export function slot<O, T>(
  name: string,
  make: (owner: O, previous: T | undefined) => T,
  dispose?: (value: T) => void,
): Slot<O, T> {
  return { name, make, ...(dispose ? { dispose } : {}) };
}

/**
 * The values one owner holds, each made on first `get` (a value that is a rejected promise is
 * forgotten, so the next `get` makes it again).
 */
export class Memo<O> {
  private readonly values = new Map<Slot<O, unknown>, unknown>();
  private disposed = false;

  constructor(
    /** What the values are made from. */
    readonly owner: O,
    /**
     * The memo of the owner before this one, whose values `make` may carry over (that one
     * stops looking back: at most two owners are kept this way).
     */
    private previous: Memo<O> | null = null,
  ) {
    previous?.forgetPrevious();
  }

  /**
   * The value of `s`, made now (by `make`, else the slot's own) if this memo does not hold it
   * yet: the first caller's `make` wins, as when a server opens a project's vectors with its
   * embedder and a tool later asks for "the project's vectors".
   */
  get<T>(s: Slot<O, T>, make: Slot<O, T>["make"] = s.make): T {
    if (this.values.has(s)) return this.values.get(s) as T;
    if (this.disposed) throw new Error(`'${s.name}' asked of a memo that was disposed`);
    const before = this.previous?.peek(s);
    const value = make(this.owner, before);
    this.values.set(s, value);
    if (value instanceof Promise) {
      value.catch(() => {
        if (this.values.get(s) === value) this.values.delete(s);
      });
    }
    return value;
  }

  /** The value of `s` if it was made, without making it. */
  peek<T>(s: Slot<O, T>): T | undefined {
    return this.values.get(s) as T | undefined;
  }

  /** Forgets the value of `s` (the next `get` makes it again). */
  forget<T>(s: Slot<O, T>): void {
    const v = this.values.get(s) as T | undefined;
    if (this.values.delete(s) && v !== undefined) s.dispose?.(v);
  }

  /** The names of the values held, in the order they were made. */
  held(): string[] {
    return [...this.values.keys()].map((s) => s.name);
  }

  /** Stops looking back at the previous owner's values (they can go). */
  forgetPrevious(): void {
    this.previous = null;
  }

  /** Lets every value go (each slot's `dispose` first); a later `get` fails. */
  dispose(): void {
    this.disposed = true;
    this.previous = null;
    for (const [s, v] of this.values) {
      try {
        s.dispose?.(v);
      } catch {
        // one value's failure to let go is not the others'
      }
    }
    this.values.clear();
  }
}
