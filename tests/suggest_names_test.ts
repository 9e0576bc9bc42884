/**
 * "Did you mean" for a misspelt member: among names as near as each other, the member of the
 * owner the user wrote comes first. On a small project written here, through the tools.
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
