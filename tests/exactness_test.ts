/**
 * Exact answers about definitions: package-level Go `var`/`const` are symbols that
 * references and calls reach, and definitions nested in a function body are indexed as
 * its children (`outer.inner`), as an editor's outline shows them. Each on a small
 * project written here, through the parser and through the tools. References and call
 * edges: `exact_references_test.ts`.
 */

import assert from "node:assert/strict";
import { parseSource } from "../src/parse/parser.ts";
import type { SymbolRecord } from "../src/types.ts";
import { callTool, has, type Payload, withExecutor } from "./helpers.ts";

const FILES: Record<string, string> = {
  "go.mod": "module example.com/app\n\ngo 1.21\n",
  "cli/help.go": `package cli

import "os"

// ErrWriter receives error output.
var ErrWriter = os.Stderr

var (
	// OsExiter ends the process.
	OsExiter = os.Exit
	HelpPrinter func(string) = nil
	width, height int
)

const Version = "1.0"

const (
	ModeA = iota
	ModeB
)

func helper() {
	var local = 1
	const inner = 2
	_ = local + inner
}
`,
  "cli/app.go": `package cli

import "fmt"

func Run() {
	fmt.Fprintln(ErrWriter, Version)
	OsExiter(1)
}
`,
  "lib/deco.py": `def deco(f):
    LIMIT = 3
    def wrapper(*args):
        return f(*args)
    class Memo:
        def get(self):
            return LIMIT
    return wrapper
`,
  "web/outer.js": `export function outer() {
  const count = 1;
  const helper = () => count;
  function inner() {
    return helper();
  }
  return inner();
}
`,
  "web/outer.ts": `export function setup(): void {
  const make = function (): number {
    return 1;
  };
  make();
}
`,
  "core/lib.rs": `pub fn outer() -> i32 {
    const K: i32 = 2;
    fn square(v: i32) -> i32 {
        v * v
    }
    square(K)
}
`,
};

async function symbolsOf(path: string): Promise<SymbolRecord[]> {
  const parsed = await parseSource(path, FILES[path]);
  assert.equal(parsed.error, undefined, `${path}: ${parsed.error}`);
  return parsed.symbols;
}

function outline(symbols: SymbolRecord[]): string[] {
  return symbols.map((s) => `${s.kind} ${s.qualifiedName} ${s.parent ?? "-"}`);
}

Deno.test("go: package-level var and const, alone and grouped, are symbols", async () => {
  assert.deepEqual(outline(await symbolsOf("cli/help.go")), [
    "variable ErrWriter -",
    "variable OsExiter -",
    "variable HelpPrinter -",
    "variable width -",
    "variable height -",
    "constant Version -",
    "constant ModeA -",
    "constant ModeB -",
    "function helper -",
  ]);
  const symbols = await symbolsOf("cli/help.go");
  const exiter = symbols.find((s) => s.name === "OsExiter")!;
  assert.equal(exiter.doc, "OsExiter ends the process.");
  assert.equal(exiter.signature, "OsExiter = os.Exit");
  assert.equal(symbols.find((s) => s.name === "ErrWriter")!.signature, "var ErrWriter = os.Stderr");
});

Deno.test("nested definitions are children of the function they are in", async () => {
  assert.deepEqual(outline(await symbolsOf("lib/deco.py")), [
    "function deco -",
    "function deco.wrapper deco",
    "class deco.Memo deco",
    "method deco.Memo.get deco.Memo",
  ]);
  assert.deepEqual(outline(await symbolsOf("web/outer.js")), [
    "function outer -",
    "function outer.helper outer",
    "function outer.inner outer",
  ]);
  assert.deepEqual(outline(await symbolsOf("web/outer.ts")), [
    "function setup -",
    "function setup.make setup",
  ]);
  assert.deepEqual(outline(await symbolsOf("core/lib.rs")), [
    "function outer -",
    "function outer.square outer",
  ]);
});

Deno.test("tools: Go package vars are reached by references; nested names resolve", async () => {
  await withExecutor(FILES, async (ex) => {
    const refs = await callTool(ex, "find_references", { symbol_name: "OsExiter" });
    const lines = (refs.references as Payload[]).map((r) => `${r.file}:${r.line} ${r.kind}`);
    has(lines, "cli/help.go:10 definition");
    has(lines, "cli/app.go:7 call");
    const writer = await callTool(ex, "find_references", { symbol_name: "ErrWriter" });
    const reads = (writer.references as Payload[]).map((r) => `${r.file}:${r.line}`);
    has(reads, "cli/app.go:6");

    for (
      const [name, file, line] of [
        ["deco.wrapper", "lib/deco.py", 3],
        ["outer.inner", "web/outer.js", 4],
        ["setup.make", "web/outer.ts", 2],
        ["outer.square", "core/lib.rs", 3],
      ] as const
    ) {
      const explained = await callTool(ex, "explain_symbol", { symbol_name: name });
      const s = explained.symbol as Payload;
      assert.deepEqual([s.file, s.line], [file, line], name);
      const context = await callTool(ex, "get_context", { symbol_name: name });
      assert.deepEqual([context.file, context.line], [file, line], name);
    }
  });
});

Deno.test("bash: a file with case … esac keeps every function (the grammar's isalpha import)", async () => {
  const source = `usage() {
  echo "usage"
}
dispatch() {
  case "$1" in
    a|B) usage ;;
    *) echo other ;;
  esac
}
`;
  const parsed = await parseSource("run.sh", source, "bash");
  assert.equal(parsed.error ?? "", "");
  assert.deepEqual(parsed.symbols.map((s) => [s.name, s.startLine]), [["usage", 1], [
    "dispatch",
    4,
  ]]);
});

Deno.test("wasm imports: a renamed import changes only its name", async () => {
  const { renameImports } = await import("../src/parse/wasm_imports.ts");
  // (module (import "env" "isalpha" (func (param i32) (result i32))) (import "env" "x" (global i32)))
  const wasm = Uint8Array.from(
    // header, type section, import section: "env" "isalpha" func 0, "env" "x" global i32
    ("0061736d01000000" + "01060160017f017f" + "021802" + "03656e760769736" + "16c7068610000" +
      "03656e760178037f00").match(/../g)!.map((h) => parseInt(h, 16)),
  );
  assert.ok(WebAssembly.validate(wasm));
  const renamed = Uint8Array.from(renameImports(wasm, { isalpha: "iswalpha" }));
  assert.ok(WebAssembly.validate(renamed));
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(renamed));
  assert.deepEqual(imports.map((i) => `${i.module}.${i.name}:${i.kind}`), [
    "env.iswalpha:function",
    "env.x:global",
  ]);
  assert.equal(renameImports(wasm, { other: "y" }), wasm);
});
