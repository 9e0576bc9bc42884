/**
 * Renames imports of a WebAssembly module before it is linked. Some shipped grammars import C
 * library functions the tree-sitter runtime does not export: the Bash grammar of
 * `tree-sitter-wasms@0.1.13` imports `isalpha`, which `web-tree-sitter@0.25.10` lacks, so its
 * `case … esac` handling fails at parse time with "resolved is not a function". The runtime
 * does export `iswalpha`, which answers the same for every byte the scanner asks about.
 *
 * @module
 */

/** Imports that get another name: C functions the runtime lacks → ones it has. */
export const IMPORT_RENAMES: Readonly<Record<string, string>> = { isalpha: "iswalpha" };

/**
 * The module with imported names renamed (module `env` only); the same bytes when nothing
 * is renamed.
 *
 * @example
 * ```ts
 * const fixed = renameImports(await Deno.readFile("tree-sitter-bash.wasm"), IMPORT_RENAMES);
 * ```
 */
export function renameImports(
  wasm: Uint8Array,
  renames: Readonly<Record<string, string>>,
): Uint8Array {
  let at = 8; // magic and version
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, sizeEnd] = leb(wasm, at + 1);
    const start = sizeEnd;
    if (id === 2) {
      const body = renameInSection(wasm.subarray(start, start + size), renames);
      if (!body) return wasm;
      const out = [
        wasm.subarray(0, at + 1),
        encodeLeb(body.length),
        body,
        wasm.subarray(start + size),
      ];
      return concat(out);
    }
    at = start + size;
  }
  return wasm;
}

/** The import section with names renamed, or null when none is. */
function renameInSection(
  body: Uint8Array,
  renames: Readonly<Record<string, string>>,
): Uint8Array | null {
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  let [count, at] = leb(body, 0);
  parts.push(body.subarray(0, at));
  let changed = false;
  while (count-- > 0) {
    const [moduleLen, m] = leb(body, at);
    const module = dec.decode(body.subarray(m, m + moduleLen));
    const [fieldLen, f] = leb(body, m + moduleLen);
    const field = dec.decode(body.subarray(f, f + fieldLen));
    const descStart = f + fieldLen;
    const descEnd = skipDescriptor(body, descStart);
    const to = module === "env" ? renames[field] : undefined;
    if (to) {
      changed = true;
      const name = enc.encode(to);
      parts.push(body.subarray(at, m + moduleLen), encodeLeb(name.length), name);
      parts.push(body.subarray(descStart, descEnd));
    } else {
      parts.push(body.subarray(at, descEnd));
    }
    at = descEnd;
  }
  parts.push(body.subarray(at));
  return changed ? concat(parts) : null;
}

/** The end of an import descriptor (function, table, memory or global). */
function skipDescriptor(b: Uint8Array, at: number): number {
  const kind = b[at++];
  if (kind === 0) return leb(b, at)[1]; // function: type index
  if (kind === 1) at++; // table: element type, then limits
  if (kind === 1 || kind === 2) {
    const flags = b[at++];
    at = leb(b, at)[1];
    return flags & 1 ? leb(b, at)[1] : at;
  }
  if (kind === 3) return at + 2; // global: value type, mutability
  throw new Error(`unknown wasm import kind ${kind}`);
}

/** An unsigned LEB128 at `at`: its value and the offset after it. */
function leb(b: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function encodeLeb(n: number): Uint8Array {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Uint8Array.from(out);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
