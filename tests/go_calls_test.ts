/**
 * Go call graphs: a conversion to a predeclared type (`uint32(x)`, `string(b)`) is no call —
 * on google/uuid, NewUUID's callees listed uint32 and uint16 beside GetTime (gopls's call
 * hierarchy has neither); a conversion to a project type still leads to it. On a small
 * project written here, through the tools.
 */

import assert from "node:assert/strict";
import { callTool, type Payload, withExecutor } from "./helpers.ts";

const GO = `package clock

// Tick is a count of ticks.
type Tick uint32

func now() int64 { return 1 }

// Stamp reads the clock.
func Stamp(b []byte) string {
	t := uint32(now())
	_ = Tick(t)
	return string(b) + string(rune(t))
}
`;

Deno.test("Go: a conversion to a predeclared type is no call; to a project type it is", async () => {
  await withExecutor({ "go.mod": "module example.com/clock\n", "clock.go": GO }, async (ex) => {
    await callTool(ex, "index_project", {});
    const g = await callTool(ex, "get_call_graph", { symbol_name: "Stamp" });
    const callees = (g.callees as Payload[]).map((c) => String(c.name));
    assert.deepEqual(callees, ["now", "Tick"]);
  });
});
