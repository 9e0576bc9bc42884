/**
 * The questions of a key file without their keys, as an answerer gets them (Markdown, with the
 * answer file's form). The coordinator hands this out; the key file stays with the scorer.
 *
 * Run: `deno run -A bench/assistant/questions.ts keys/django.json > questions-django.md`
 *
 * @module
 */

import { readKeys } from "./keys.ts";

if (import.meta.main) {
  if (!Deno.args[0]) {
    console.error("usage: deno run -A bench/assistant/questions.ts KEYS.json");
    Deno.exit(2);
  }
  const k = await readKeys(Deno.args[0]);
  console.log(`# Questions on ${k.project} (${k.source})\n`);
  console.log(
    "Answer in a Markdown file, one `## <id>` section a question, naming places as `path:line` " +
      "(paths relative to the project folder) or `path` for a whole file.\n",
  );
  for (const q of k.questions) console.log(`## ${q.id}\n${q.question}\n`);
}
