/**
 * The analysis commands: `codectx quality [PATH]` and `codectx validate FILE|-`. Both run
 * the tools through the executor and print a summary (or the payload with `--json`).
 *
 * @module
 */

import { basename, extname, resolve } from "node:path";
import { print as printQuality } from "../tools/analyze_quality/cli.ts";
import type { AnalyzeQualityPayload } from "../tools/analyze_quality/schema.ts";
import { print as printValidation } from "../tools/validate_code/cli.ts";
import type { ValidateCodePayload } from "../tools/validate_code/schema.ts";
import { openExecutor, parse, upToDate, UsageError } from "./args.ts";
import { emit } from "./tool_command.ts";

const QUALITY_HELP = `Usage: codectx quality [PATH] [--path DIR] [--json] [--max-issues N]
                       [--min-severity LOW|MEDIUM|HIGH] [--top N] [--fail-on LOW|MEDIUM|HIGH]

Maintainability index (radon's scale), complexity and security issues (bandit ids for
Python) of PATH (a file or folder; default: the whole project).
  --json              print the analyze_quality payload
  --max-issues N      list at most N issues (default 20; with --json 500)
  --min-severity S    leave out issues below S
  --top N             list the N lowest-MI files and most complex functions (default 10)
  --fail-on S         exit with 1 when an issue of severity S or above is found
  --no-update         answer from the index as it is, without first reading edited files
`;

const VALIDATE_HELP =
  `Usage: codectx validate FILE|- [--language L] [--file-path P] [--path DIR] [--json]

Checks code (a file, or standard input with -): syntax errors, names that exist nowhere
(not in the code, the project, the standard library or declared dependencies), security
issues and metrics. Exits with 1 when there are syntax errors or unresolved names.
  --language L        the language (default: from the file name, else detected)
  --file-path P       where the code would live in the project (for -)
  --json              print the validate_code payload
  --no-update         answer from the index as it is, without first reading edited files
`;

const LEVELS = ["LOW", "MEDIUM", "HIGH"];

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function level(value: unknown, option: string): "LOW" | "MEDIUM" | "HIGH" | undefined {
  if (value === undefined) return undefined;
  const v = String(value).toUpperCase();
  if (!LEVELS.includes(v)) throw new UsageError(`${option} must be LOW, MEDIUM or HIGH`);
  return v as "LOW" | "MEDIUM" | "HIGH";
}

function count(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${option} must be a whole number`);
  return n;
}

/** `codectx quality [PATH]`. */
export async function cmdQuality(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    json: { type: "boolean" },
    "max-issues": { type: "string" },
    "min-severity": { type: "string" },
    top: { type: "string" },
    "fail-on": { type: "string" },
  }, 1);
  if (values.help) {
    console.log(QUALITY_HELP);
    return 0;
  }
  const json = Boolean(values.json);
  const maxIssues = count(values["max-issues"], "--max-issues") ?? (json ? 500 : 20);
  const top = count(values.top, "--top") ?? 10;
  const minSeverity = level(values["min-severity"], "--min-severity");
  const failOn = level(values["fail-on"], "--fail-on");
  const executor = await openExecutor(values);
  try {
    await upToDate(executor, values);
    // PATH is taken from the current directory when it exists there, else from the root.
    let target = positionals[0];
    if (target !== undefined) {
      const fromCwd = resolve(Deno.cwd(), target);
      if (await exists(fromCwd)) target = fromCwd;
    }
    const r = await executor.execute({
      tool_name: "analyze_quality",
      arguments: {
        ...(target === undefined ? {} : { path: target }),
        max_issues: failOn ? 100_000 : maxIssues,
        max_functions: top,
        time_budget_ms: 3_600_000,
        ...(minSeverity ? { min_severity: minSeverity } : {}),
      },
    }, { source: "cli", timeoutMs: 0 });
    if (!r.success) {
      console.error(`codectx: ${r.error}`);
      return 1;
    }
    const q = r.result_payload as AnalyzeQualityPayload;
    const failing = failOn
      ? q.bandit_issues.some((i) => LEVELS.indexOf(i.severity) >= LEVELS.indexOf(failOn))
      : false;
    if (json) {
      if (failOn) q.bandit_issues = q.bandit_issues.slice(0, maxIssues);
      console.log(JSON.stringify(q, null, 2));
    } else emit(printQuality(q, top, maxIssues));
    return failing ? 1 : 0;
  } finally {
    await executor.close();
  }
}

/** `codectx validate FILE|-`. */
export async function cmdValidate(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    json: { type: "boolean" },
    language: { type: "string" },
    "file-path": { type: "string" },
  }, 1);
  if (values.help) {
    console.log(VALIDATE_HELP);
    return 0;
  }
  const source = positionals[0];
  if (source === undefined) throw new UsageError("validate needs a FILE, or - for standard input");
  let bytes: Uint8Array;
  try {
    bytes = source === "-"
      ? new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer())
      : await Deno.readFile(source);
  } catch (err) {
    throw new UsageError(`cannot read '${source}': ${err instanceof Error ? err.message : err}`);
  }
  let code: string;
  try {
    code = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    console.error(`codectx: ${source === "-" ? "standard input" : source} is not UTF-8 text`);
    return 1;
  }
  const executor = await openExecutor(values);
  try {
    await upToDate(executor, values);
    // A file inside the project tells where the code lives; elsewhere only its name counts.
    let filePath = values["file-path"] as string | undefined;
    let language = values.language as string | undefined;
    if (filePath === undefined && source !== "-") {
      const abs = resolve(Deno.cwd(), source);
      const root = executor.service.root;
      if (abs.startsWith(root + "/")) filePath = abs.slice(root.length + 1);
      else if (language === undefined && extname(source)) language = extname(basename(source));
    }
    const r = await executor.execute({
      tool_name: "validate_code",
      arguments: {
        code,
        ...(language ? { language } : {}),
        ...(filePath ? { file_path: filePath } : {}),
      },
    }, { source: "cli" });
    if (!r.success) {
      console.error(`codectx: ${r.error}`);
      return 1;
    }
    const v = r.result_payload as ValidateCodePayload;
    if (values.json) console.log(JSON.stringify(v, null, 2));
    else emit(printValidation(source === "-" ? filePath ?? "<stdin>" : source, v));
    return v.valid && v.unresolved_symbols.length === 0 ? 0 : 1;
  } finally {
    await executor.close();
  }
}
