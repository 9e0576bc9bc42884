/**
 * `get_context` shows the file's import statements as the language's query captures them
 * (`@import.statement`, recorded at indexing), not as a per-language pattern over the lines
 * guessed them: a statement over several lines is shown whole whatever its first line looks
 * like, and an import a function makes for itself is that function's, not the file's. On a
 * small project in Python, TypeScript, Go and Rust, through the executor.
 */

import assert from "node:assert/strict";
import { callTool, withExecutor } from "./helpers.ts";

const FILES = {
  "app/report.py": `from collections import (
    OrderedDict,
    defaultdict,
)


def helper():
    import re
    return re.compile("x")


def summarize(rows):
    out = defaultdict(list)
    for r in rows:
        out[r].append(helper())
    return OrderedDict(out)
`,
  "web/load.ts": `const {
  readFile,
  writeFile,
} = require("node:fs/promises");

export async function load(path: string): Promise<string> {
  const text = await readFile(path, "utf8");
  await writeFile(path + ".bak", text);
  return text;
}
`,
  "cmd/main.go": `package main

import (
	"fmt"
	"strings"
)

func Shout(s string) string {
	return strings.ToUpper(s)
}

func main() {
	fmt.Println(Shout("hi"))
}
`,
  "src/lib.rs": `use std::{
    collections::HashMap,
    fmt,
};

pub fn count(words: &[&str]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in words {
        *m.entry(w.to_string()).or_insert(0) += 1;
    }
    let _ = fmt::format(format_args!("{}", m.len()));
    m
}
`,
};

/** The lines of the window's imports section. */
async function importsShown(
  ex: Parameters<Parameters<typeof withExecutor>[1]>[0],
  symbol: string,
): Promise<string> {
  const p = await callTool(ex, "get_context", { symbol_name: symbol, max_tokens: 4000 });
  const text = p.text as string;
  const at = text.indexOf("## Imports of ");
  assert.ok(at >= 0, `${symbol}: no imports section in\n${text}`);
  const next = text.indexOf("\n## ", at + 1);
  return text.slice(at, next < 0 ? undefined : next);
}

Deno.test("get_context: import statements as the query captures them", async () => {
  await withExecutor(FILES, async (ex) => {
    await callTool(ex, "index_project", {});

    // Python: the bracketed statement whole; helper's own `import re` is not the file's.
    const py = await importsShown(ex, "summarize");
    for (const line of ["from collections import (", "    defaultdict,", ")"]) {
      assert.ok(py.includes(line), `python: '${line}' missing in\n${py}`);
    }
    assert.ok(!py.includes("import re"), `python: a function's import shown as the file's\n${py}`);

    // TypeScript: a destructured require over four lines (its first line names no require).
    const ts = await importsShown(ex, "load");
    for (const line of ["const {", "  writeFile,", '} = require("node:fs/promises");']) {
      assert.ok(ts.includes(line), `typescript: '${line}' missing in\n${ts}`);
    }

    // Go: the import block from `import (` to its `)`.
    const go = await importsShown(ex, "Shout");
    for (const line of ["import (", '\t"strings"', ")"]) {
      assert.ok(go.includes(line), `go: '${line}' missing in\n${go}`);
    }

    // Rust: a grouped use over four lines.
    const rs = await importsShown(ex, "count");
    for (const line of ["use std::{", "    collections::HashMap,", "};"]) {
      assert.ok(rs.includes(line), `rust: '${line}' missing in\n${rs}`);
    }
  });
});
