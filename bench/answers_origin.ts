/**
 * Where a project of the real-project answer suite comes from (`bench/labels/answers.json`),
 * and the folder of it to index: read by `bench/answers.ts` and `bench/labels/answers_keys.ts`.
 *
 * @module
 */

import { deb, debSource, npm } from "./sources.ts";

/** Where a project comes from, and the folder of it to index. */
export interface Origin {
  kind: "deb" | "dsc" | "npm";
  name: string;
  /** Folder inside the unpacked package that is the project's root (`*`: its one folder). */
  root: string;
  /** Files copied in beside the root (a Python package's README from its doc folder). */
  extra?: Record<string, string>;
}

/** Unpacks the package (cached) and returns the project's root in it, and the unpacked folder. */
export async function originRoot(o: Origin): Promise<{ root: string; unpacked: string }> {
  const unpacked = o.kind === "deb"
    ? await deb(o.name)
    : o.kind === "dsc"
    ? await debSource(o.name)
    : await npm(o.name);
  if (!o.root.includes("*")) return { root: `${unpacked}/${o.root}`, unpacked };
  const [head, tail] = o.root.split("*");
  const dir = `${unpacked}/${head}`;
  const sub = [...Deno.readDirSync(dir)].find((e) => e.isDirectory)!.name;
  return { root: `${dir}${sub}${tail}`, unpacked };
}
