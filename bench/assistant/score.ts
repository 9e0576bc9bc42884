/**
 * Scores the assistant bench: each arm's answers against the key (right / partly / wrong), and
 * from the wrapper's log the characters it read and the commands it ran; prints a table per
 * arm, the ratio of each arm's characters and commands to the shell's, and every answer that
 * was not right with what it missed or named wrongly.
 *
 * Run: `deno run -A bench/assistant/score.ts --keys keys/django.json
 *   --run cli=answers-cli.md,log-cli.jsonl --run shell=answers-shell.md,log-shell.jsonl …`
 * (`--json` prints the figures as JSON.) A log's entries are counted for the arm given here;
 * entries whose `q` names no question of the key are counted under "(none)".
 *
 * @module
 */

import { parseArgs } from "node:util";
import { answerSections, judge, readKeys, type Verdict } from "./keys.ts";
import { readLog } from "./run.ts";

/** One arm's figures on one key. */
export interface ArmScore {
  arm: string;
  right: number;
  partly: number;
  wrong: number;
  chars: number;
  commands: number;
  verdicts: Record<string, Verdict>;
}

/** Scores one arm: its answers against the key, its log's characters and commands. */
export async function scoreArm(
  keysPath: string,
  arm: string,
  answersPath: string,
  logPath: string,
): Promise<ArmScore> {
  const keys = await readKeys(keysPath);
  const answers = answerSections(await Deno.readTextFile(answersPath));
  const log = await readLog(logPath);
  const s: ArmScore = { arm, right: 0, partly: 0, wrong: 0, chars: 0, commands: 0, verdicts: {} };
  for (const q of keys.questions) {
    const v = judge(q, answers.get(q.id) ?? "");
    s.verdicts[q.id] = v;
    s[v.verdict]++;
  }
  for (const e of log) {
    s.chars += e.chars;
    s.commands++;
  }
  return s;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      keys: { type: "string" },
      run: { type: "string", multiple: true },
      json: { type: "boolean" },
    },
  });
  if (!values.keys || !values.run?.length) {
    console.error(
      "usage: deno run -A bench/assistant/score.ts --keys KEYS.json --run ARM=ANSWERS.md,LOG.jsonl …",
    );
    Deno.exit(2);
  }
  const scores: ArmScore[] = [];
  for (const r of values.run) {
    const m = /^([^=]+)=([^,]+),(.+)$/.exec(r);
    if (!m) throw new Error(`--run ${r}: write ARM=ANSWERS.md,LOG.jsonl`);
    scores.push(await scoreArm(values.keys, m[1], m[2], m[3]));
  }
  if (values.json) {
    console.log(JSON.stringify(scores, null, 2));
    Deno.exit(0);
  }
  const keys = await readKeys(values.keys);
  const shell = scores.find((s) => s.arm === "shell");
  const n = keys.questions.length;
  console.log(`${keys.project} (${keys.source}), ${n} questions\n`);
  console.log(
    "| arm | right | partly | wrong | characters read | commands | chars ÷ shell | commands ÷ shell |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const s of scores) {
    const ratio = (a: number, b: number | undefined) => (b ? (a / b).toFixed(2) : "");
    console.log(
      `| ${s.arm} | ${s.right} / ${n} | ${s.partly} | ${s.wrong} | ${
        s.chars.toLocaleString("en")
      } | ${s.commands} | ${ratio(s.chars, shell?.chars)} | ${
        ratio(s.commands, shell?.commands)
      } |`,
    );
  }
  for (const s of scores) {
    const bad = Object.entries(s.verdicts).filter(([, v]) => v.verdict !== "right");
    if (!bad.length) continue;
    console.log(`\n${s.arm}:`);
    for (const [id, v] of bad) {
      const why = [
        v.missing.length ? `missing ${v.missing.join(", ")}` : "",
        v.wrongItems.length ? `wrongly names ${v.wrongItems.join(", ")}` : "",
      ].filter(Boolean).join("; ");
      console.log(`  ${id} ${v.verdict}: ${why}`);
    }
  }
  // Where the shell got it right and another arm did not (the last figure).
  for (const s of scores.filter((s) => s !== shell && shell)) {
    const worse = Object.keys(s.verdicts).filter((id) =>
      s.verdicts[id].verdict === "wrong" && shell!.verdicts[id].verdict === "right"
    );
    if (worse.length) {
      console.log(`\n${s.arm} wrong where the shell was right: ${worse.join(", ")}`);
    }
  }
}
