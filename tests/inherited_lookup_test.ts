/**
 * A method asked for through a subclass that inherits it (`Client.build_request` where
 * `Client(BaseClient)` declares none) resolves to the base's definition in every tool that
 * takes a symbol name: explain, references, the call graph and the context window.
 */

import assert from "node:assert/strict";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

const FILES = {
  "pkg/base.py": [
    "class BaseClient:",
    "    def build_request(self, url):",
    "        return ('GET', url)",
    "",
  ].join("\n"),
  "pkg/client.py": [
    "from pkg.base import BaseClient",
    "",
    "",
    "class Client(BaseClient):",
    "    def send(self, url):",
    "        return self.build_request(url)",
    "",
  ].join("\n"),
  "pkg/app.ts": [
    "class Base {",
    "  open(): number {",
    "    return 1;",
    "  }",
    "}",
    "export class Store extends Base {",
    "  read(): number {",
    "    return this.open();",
    "  }",
    "}",
    "",
  ].join("\n"),
};

Deno.test("a method inherited by a subclass is found when asked through the subclass", async () => {
  await withExecutor(FILES, async (ex) => {
    const explained = await callTool(ex, "explain_symbol", {
      symbol_name: "Client.build_request",
    });
    const symbol = explained.symbol as Payload;
    assert.equal(symbol.qualified_name, "BaseClient.build_request");
    assert.equal(symbol.file, "pkg/base.py");
    const callers = (explained.callers as Payload[]).map((c) => c.qualified_name ?? c.name);
    assert.ok(callers.includes("Client.send"), JSON.stringify(explained.callers));

    const refs = await refLines(ex, "Client.build_request");
    assert.ok(refs.some((r) => r.startsWith("pkg/client.py:6 ")), refs.join("\n"));

    const graph = await callTool(ex, "get_call_graph", { symbol_name: "Client.build_request" });
    assert.equal(graph.symbol, "BaseClient.build_request");
    assert.ok(JSON.stringify(graph.callers).includes("Client.send"));

    const context = await callTool(ex, "get_context", { symbol_name: "Store.open" });
    assert.match(context.text as string, /open\(\): number/);
    assert.match(context.text as string, /this\.open\(\)/);
  });
});

Deno.test("a subclass member that exists nowhere up the chain is still not found", async () => {
  await withExecutor(FILES, async (ex) => {
    const r = await ex.execute({
      tool_name: "explain_symbol",
      arguments: { symbol_name: "Client.no_such_method" },
    });
    assert.equal(r.success, false);
    assert.match(r.error ?? "", /not found/);
  });
});
