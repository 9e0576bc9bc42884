/**
 * `codectx doctor`: checks this machine (Deno, grammars, model, index folder, free space)
 * and prints what to fix; exit code 1 when a check fails.
 *
 * @module
 */

import { type DoctorCheck, runDoctor } from "../service/doctor.ts";
import { parse } from "./args.ts";

const HELP = `codectx doctor — check that codectx can run here

Usage: codectx doctor [--index-dir DIR] [--json]

Checks the Deno version, that every tree-sitter grammar and its query file load, that the
codectx-code model is present and matches its checksum, that the index folder is writable
and Deno KV opens there, and the free space. Prints one line per check and, for a problem,
what to do. Exit code 1 when a check fails (a warning alone exits 0).
  --index-dir DIR   the index folder to check (default: $CODECTX_HOME,
                    $XDG_CACHE_HOME/codectx or ~/.cache/codectx)
  --json            print the checks as JSON`;

const MARK: Record<DoctorCheck["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

/** Runs `codectx doctor`. */
export async function cmdDoctor(args: string[]): Promise<number> {
  const { values } = parse(args, { json: { type: "boolean" } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const json = values.json === true;
  const checks = await runDoctor(
    { indexDir: values["index-dir"] as string | undefined },
    (c) => {
      if (json) return;
      console.log(`${MARK[c.status]}  ${c.name}: ${c.detail}`);
      if (c.fix) console.log(`      fix: ${c.fix}`);
    },
  );
  const failed = checks.filter((c) => c.status === "fail").length;
  if (json) console.log(JSON.stringify({ ok: failed === 0, checks }, null, 2));
  else {
    console.log(
      failed ? `${failed} check(s) failed; fix them and run 'codectx doctor' again` : "all good",
    );
  }
  return failed ? 1 : 0;
}
