/**
 * Receiver chains (issue 13), as the parser reads them from snippets written in each test:
 * how long a binding's declared type holds (`let x = x.m()`, `x = x.m()`, `x := x.M()`), and
 * the type a value gives (`var x = &T{…}`, a parameter annotated with a string or
 * `Optional`). The chains on a project, through the tools: `chains_test.ts`.
 */

import assert from "node:assert/strict";
import { declaredText, receiverText } from "../src/facts/text.ts";
import { parseSource } from "../src/parse/parser.ts";

Deno.test("references: a binding holds after its value, until the next (`let x = x.m()`, `x = x.m()`, `x := x.M()`)", async () => {
  const sources: Record<string, string> = {
    "a.rs": `struct Conflicts;
impl Conflicts {
    fn gather(&self) -> Conflicts { Conflicts }
    fn size(&self) -> usize { 0 }
}
fn check(conflicts: &Conflicts) {
    let conflicts = conflicts.gather();
    conflicts.size();
}

fn nest(c: &Conflicts, names: Vec<String>) {
    c.size();
    let c = {
        let c = c.gather();
        c.size()
    };
    for c in names {}
}
`,
    "a.py": `class Command:
    def child(self) -> "Command":
        return self

def run(cmd: Command):
    cmd = cmd.child()
    cmd.run()
`,
    "a.go": `package p

type Command struct{}

func (c *Command) Parent() *Command { return c }

func run(cmds []*Command) {
	for _, c := range cmds {
		c := c.Parent()
		c.Run()
	}
}
`,
  };
  const got: string[] = [];
  for (const [file, source] of Object.entries(sources)) {
    const parsed = await parseSource(file, source);
    for (const r of parsed.references ?? []) {
      if (r.receiverKind) {
        got.push(
          `${file}:${r.line} ${r.name} ${r.receiverKind} ${r.receiver && receiverText(r.receiver)}`,
        );
      }
    }
  }
  assert.deepEqual(got, [
    "a.rs:7 gather typed Conflicts",
    "a.rs:8 size typed Conflicts .gather()",
    // Before a later binding, the earlier holds; inside an outer binding's value, an inner one.
    "a.rs:12 size typed Conflicts",
    "a.rs:14 gather typed Conflicts",
    "a.rs:15 size typed Conflicts .gather()",
    "a.py:6 child typed Command",
    "a.py:7 run typed Command .child()",
    "a.go:9 Parent typed []Command []",
    "a.go:10 Run typed []Command [].Parent()",
  ]);
});

Deno.test("parser: Go `var x = &T{…}`, Python `self.x = x` of a parameter annotated with a string or Optional", async () => {
  const go = await parseSource(
    "a.go",
    `package p

type Command struct{}

func (c *Command) Path() string { return "" }

var echo = &Command{}

func run() {
	var root = &Command{}
	root.Path()
}
`,
  );
  assert.deepEqual(go.declared?.map(declaredText).find(([k]) => k === "echo"), ["echo", "Command"]);
  const path = go.references?.find((r) => r.name === "Path" && r.line === 11);
  assert.equal(
    `${path?.receiverKind} ${path?.receiver && receiverText(path.receiver)}`,
    "typed Command",
  );
  const py = await parseSource(
    "a.py",
    `class Context:
    def __init__(self, command: "Command", parent: t.Optional["Context"] = None, other=None):
        self.command = command
        self.parent = parent
        self.other = other
`,
  );
  // An unannotated parameter says nothing.
  assert.deepEqual(py.declared?.map(declaredText), [["Context.command", "Command"], [
    "Context.parent",
    "Context",
  ]]);
});
