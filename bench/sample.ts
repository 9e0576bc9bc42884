/**
 * Deterministic sampling for benches: a seeded random source and a sorted file walk, so a
 * bench picks the same files and symbols on every run.
 *
 * @module
 */

/** A seeded source of numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Files below `dir` whose name `keepFile` accepts, in name order, entering only the folders
 * `keepDir` accepts (by name).
 */
export function walkFiles(
  dir: string,
  keepDir: (name: string) => boolean,
  keepFile: (name: string) => boolean,
  out: string[] = [],
): string[] {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory && keepDir(e.name)) walkFiles(p, keepDir, keepFile, out);
    else if (e.isFile && keepFile(e.name)) out.push(p);
  }
  return out;
}
