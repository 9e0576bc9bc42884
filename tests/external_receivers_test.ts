/**
 * A call on a value whose type is a library's or the runtime's is an external call, not a
 * guess at a project method of the same name: `console.error` is not `Logger.error`,
 * `Box::new` is not a project `new`. A receiver whose type is unknown (an
 * untyped parameter) still reaches the project's one member of that name, marked by name.
 */

import assert from "node:assert/strict";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

const FILES = {
  "src/store.ts": [
    "export class Logger {",
    "  error(msg: string): void {}",
    "  close(): void {}",
    "}",
    "export class Store {",
    "  open(path: string): boolean {",
    '    console.error("opening " + path);',
    "    window.close();",
    "    return true;",
    "  }",
    "  shut(log) {",
    "    log.close();",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/walk.rs": [
    "pub struct Opts {",
    "    pub items: Vec<String>,",
    "}",
    "impl Opts {",
    "    pub fn push(&mut self, s: String) {}",
    "}",
    "pub fn build(opts: &mut Opts) {",
    "    let mut v: Vec<u32> = Vec::new();",
    "    v.push(1);",
    "    let b = Box::new(3);",
    '    opts.push(String::from("x"));',
    "}",
    "fn generic<T: Clone>(t: T) -> T {",
    "    t.clone()",
    "}",
    "",
  ].join("\n"),
};

/** Callees of a symbol as `name kind resolution`. */
async function callees(ex: Parameters<typeof callTool>[0], name: string): Promise<string[]> {
  const g = await callTool(ex, "get_call_graph", { symbol_name: name });
  return (g.callees as Payload[]).map((c) => `${c.name} ${c.kind} ${c.resolution}`);
}

Deno.test("calls on the runtime's globals and on values of library types are external", async () => {
  await withExecutor(FILES, async (ex) => {
    const open = await callees(ex, "Store.open");
    assert.ok(open.includes("console.error external exact"), open.join("\n"));
    assert.ok(open.includes("window.close external exact"), open.join("\n"));
    assert.ok(!open.some((c) => c.startsWith("Logger.")), open.join("\n"));

    const build = await callees(ex, "build");
    assert.ok(build.some((c) => c.startsWith("Opts.push method")), build.join("\n"));
    assert.ok(build.includes("Vec.new external exact"), build.join("\n"));
    assert.ok(build.includes("Box.new external exact"), build.join("\n"));

    // Logger.error has no caller: console.error is not one, not even by name.
    const refs = await refLines(ex, "Logger.error");
    assert.ok(!refs.some((r) => r.startsWith("src/store.ts:7 ")), refs.join("\n"));
  });
});

Deno.test("an untyped parameter's member call still reaches the project's member by name", async () => {
  await withExecutor(FILES, async (ex) => {
    const shut = await callees(ex, "Store.shut");
    assert.deepEqual(shut, ["Logger.close method name"]);
  });
});
