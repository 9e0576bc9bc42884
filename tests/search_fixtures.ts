/**
 * What the search tests share: a small project whose topics match the tiny model's
 * vocabulary, and a project opened with an embedder for one test.
 *
 * @module
 */

import type { Project } from "../src/project/project.ts";
import { ProjectService } from "../src/service/service.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

export const FIXTURE_MODELS = new URL("./fixtures/search/models", import.meta.url).pathname;
export const TINY = `${FIXTURE_MODELS}/tiny-static`;

/** A small project whose topics match the tiny model's vocabulary. */
export const FILES: Record<string, string> = {
  "app/config.py": `"""Settings."""

import json


def parse_config(path):
    """Load the yaml settings file and return the options."""
    with open(path) as fh:
        return json.load(fh)


def merge_options(a, b):
    out = dict(a)
    out.update(b)
    return out
`,
  "app/auth.py": `class PasswordStore:
    """Keeps user credentials."""

    def hash_password(self, password, salt):
        """Hash a user password with a salt."""
        import hashlib
        return hashlib.sha256(salt + password).hexdigest()

    def check_login(self, user, password):
        return self.lookup(user) == self.hash_password(password, b"s")
`,
  "web/client.ts": `/** Sends an HTTP request and returns the response body. */
export async function fetchUrl(url: string): Promise<string> {
  const response = await fetch(url);
  return await response.text();
}

export function buildQueryString(params: Record<string, string>): string {
  return Object.entries(params).map(([k, v]) => k + "=" + v).join("&");
}
`,
  "util/sorting.ts": `/** Sorts a list in ascending order with quick sort. */
export function quickSort(list: number[]): number[] {
  if (list.length < 2) return list;
  const [pivot, ...rest] = list;
  return [...quickSort(rest.filter((x) => x < pivot)), pivot, ...quickSort(rest.filter((x) => x >= pivot))];
}
`,
  "util/long.py": "def long_function():\n" +
    Array.from({ length: 60 }, (_, i) => `    step_${i} = ${i}\n`).join("") +
    "    needle_value = compute_needle()\n    return needle_value\n",
};

/** Opens `files` as a project with `embedder`, indexed, for `fn`; cleans up after. */
export async function withProject<T>(
  embedder: string,
  fn: (p: Project, root: string, indexDir: string, service: ProjectService) => Promise<T>,
  files = FILES,
): Promise<T> {
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, { indexDir, embedder, workers: 0 });
  try {
    await service.project.reindex();
    return await fn(service.project, root, indexDir, service);
  } finally {
    await service.close();
    await cleanup(root, indexDir);
  }
}
