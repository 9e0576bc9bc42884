/**
 * Code before prose: on npm packages that ship both their code and their Markdown docs
 * (`undici`, `got`), behaviour questions whose answer is a known code file (chosen from the
 * packages' layout before any run). For each factor of docs scores in the default scope,
 * prints how many questions get code as the first result and the MRR@10 of the expected
 * file (scope `all` = factor 1).
 *
 *   deno run -A bench/search_docs.ts [--embedder codectx-code]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { ProjectService } from "../src/service/service.ts";
import { DEFAULT_FUSION, fuse, retrieve } from "../src/search/hybrid.ts";
import { present } from "../src/search/present.ts";
import { DEFAULT_DOCS_WEIGHT, fileClass } from "../src/search/scope.ts";
import { BENCH_DIR } from "./search_corpus.ts";

/** Packages, where their code is, and questions with the file that answers each. */
const CASES: Array<{ pkg: string; code: string; questions: Array<[string, string]> }> = [
  {
    pkg: "undici@6.21.0",
    code: "lib",
    questions: [
      ["retry a failed request with backoff", "lib/handler/retry-handler.js"],
      ["follow redirects to another location", "lib/handler/redirect-handler.js"],
      ["parse a set-cookie header", "lib/web/cookies/parse.js"],
      ["send requests through an http proxy", "lib/dispatcher/proxy-agent.js"],
      ["intercept requests and reply with mocked data", "lib/mock/mock-interceptor.js"],
      ["balance requests across several upstream servers", "lib/dispatcher/balanced-pool.js"],
      ["read the response body as json", "lib/api/readable.js"],
      ["open a websocket connection", "lib/web/websocket/websocket.js"],
    ],
  },
  {
    pkg: "got@14.4.5",
    code: "dist/source",
    questions: [
      ["retry a failed request with backoff", "source/core/calculate-retry-delay.js"],
      ["parse the link header for pagination", "source/core/parse-link-header.js"],
      ["compute the size of the request body", "source/core/utils/get-body-size.js"],
      ["convert a url object into request options", "source/core/utils/url-to-options.js"],
    ],
  },
];

/** Fetches a package into the bench folder; its code folder is moved where the walker reads. */
async function fetchPackage(pkg: string, code: string): Promise<string> {
  const dir = `${BENCH_DIR}/docs/${pkg.replace(/[^\w.-]/g, "_")}`;
  const root = `${dir}/package`;
  try {
    await Deno.stat(`${dir}/.done`);
    return root;
  } catch {
    // not fetched yet
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const out = await new Deno.Command("npm", { args: ["pack", pkg, "--silent"], cwd: dir }).output();
  if (!out.success) throw new Error(`npm pack ${pkg} failed`);
  const tgz = new TextDecoder().decode(out.stdout).trim().split("\n").pop()!;
  await new Deno.Command("tar", { args: ["-xzf", tgz], cwd: dir }).output();
  // `dist/` is skipped by the walker as build output: give got's code its source name.
  if (code.startsWith("dist/")) await Deno.rename(`${root}/${code}`, `${root}/source`);
  await Deno.writeTextFile(`${dir}/.done`, "");
  return root;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { embedder: { type: "string", default: "codectx-code" } },
  });
  const factors = [1, 0.8, DEFAULT_DOCS_WEIGHT, 0.4].filter((x, i, a) => a.indexOf(x) === i);
  const codeFirst = new Map<number, number>();
  const mrr = new Map<number, number>();
  let total = 0;
  for (const c of CASES) {
    const root = await fetchPackage(c.pkg, c.code);
    const service = await ProjectService.open(root, {
      indexDir: `${BENCH_DIR}/docs/idx-${c.pkg.replace(/[^\w.-]/g, "_")}-${values.embedder}`,
      embedder: values.embedder,
    });
    await service.project.reindex();
    await service.vectors.settle();
    for (const [q, want] of c.questions) {
      total++;
      // Scope `all` retrieves every class unweighted; the docs factor is applied here.
      const r = await retrieve(service.project, q, { scope: "all", top_k: 10 });
      const line: string[] = [];
      for (const k of factors) {
        const scored = fuse(r, DEFAULT_FUSION);
        for (const [row, s] of scored) {
          const f = r.table.files[r.table.fileOfRow[row]];
          if (fileClass(f.path, f.language) === "docs") scored.set(row, s * k);
        }
        const items = present(r, scored, 10);
        const first = items[0];
        if (first && fileClass(first.file, first.language) === "code") {
          codeFirst.set(k, (codeFirst.get(k) ?? 0) + 1);
        }
        const at = items.findIndex((it) => it.file === want) + 1;
        mrr.set(k, (mrr.get(k) ?? 0) + (at ? 1 / at : 0));
        line.push(`×${k}: ${first ? `${first.file}:${first.line}` : "-"} (answer at ${at || "-"})`);
      }
      console.log(`${c.pkg} "${q}"\n    ${line.join("\n    ")}`);
    }
    await service.close();
  }
  console.log(`\n| docs factor | code first | MRR@10 of the answer file |\n|---|---|---|`);
  for (const k of factors) {
    console.log(
      `| ${k}${k === DEFAULT_DOCS_WEIGHT ? " (default)" : ""} | ${
        codeFirst.get(k) ?? 0
      }/${total} | ${((mrr.get(k) ?? 0) / total).toFixed(3)} |`,
    );
  }
}

if (import.meta.main) await main();
