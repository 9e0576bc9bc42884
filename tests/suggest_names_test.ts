/**
 * Names as a user writes them: "did you mean" for a misspelt member puts the member of the
 * owner the user wrote first, Go's method expression `(*T).m` names T's method m, and a Go
 * name qualified by its package (`kinds.Make`) is found in any file of the package. On a small
 * project written here, through the tools.
 */

import assert from "node:assert/strict";
import { withExecutor } from "./helpers.ts";

/** Three types with a `String` method, in file order Alpha, Beta, Gamma. */
const GO = `package kinds

type Alpha int
type Beta int
type Gamma int

func (a Alpha) String() string { return "alpha" }
func (b Beta) String() string { return "beta" }
func (g Gamma) String() string { return "gamma" }
`;

Deno.test("did you mean: the member of the owner as written comes first", async () => {
  await withExecutor({ "go.mod": "module example.com/kinds\n", "kinds.go": GO }, async (ex) => {
    await ex.execute({ tool_name: "index_project", arguments: {} });
    const r = await ex.execute({
      tool_name: "explain_symbol",
      arguments: { symbol_name: "Gamma.Strin" },
    });
    assert.equal(r.success, false);
    const err = r.error ?? "";
    assert.equal(r.error_code, "not_found");
    assert.match(err, /did you mean Gamma\.String \(kinds\.go:9\), /, err);
    // All three stay on offer: the owner may be what was misspelt.
    assert.match(err, /Alpha\.String/, err);
    assert.match(err, /Beta\.String/, err);
  });
});

Deno.test("Go's (*T).m and (T).m name the method m of T", async () => {
  await withExecutor({ "go.mod": "module example.com/kinds\n", "kinds.go": GO }, async (ex) => {
    await ex.execute({ tool_name: "index_project", arguments: {} });
    for (const name of ["(*Beta).String", "(Beta).String"]) {
      const r = await ex.execute({ tool_name: "explain_symbol", arguments: { symbol_name: name } });
      assert.ok(r.success, `${name}: ${r.error}`);
      const symbol = r.result_payload.symbol as { qualified_name: string; line: number };
      assert.deepEqual([symbol.qualified_name, symbol.line], ["Beta.String", 8]);
    }
  });
});

Deno.test("a Go name qualified by its package is found in any file of the package", async () => {
  const files = {
    "go.mod": "module example.com/kinds\n",
    "kinds.go": GO,
    "more.go": "package kinds\n\n// Make makes an Alpha.\nfunc Make() Alpha { return 1 }\n",
  };
  await withExecutor(files, async (ex) => {
    await ex.execute({ tool_name: "index_project", arguments: {} });
    for (const tool of ["explain_symbol", "find_references", "get_call_graph"]) {
      const r = await ex.execute({ tool_name: tool, arguments: { symbol_name: "kinds.Make" } });
      assert.ok(r.success, `${tool}: ${r.error}`);
    }
    const r = await ex.execute({
      tool_name: "explain_symbol",
      arguments: { symbol_name: "kinds.Make" },
    });
    const symbol = r.result_payload.symbol as { qualified_name: string; file: string };
    assert.deepEqual([symbol.qualified_name, symbol.file], ["Make", "more.go"]);
  });
});
