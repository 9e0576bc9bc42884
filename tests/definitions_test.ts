/**
 * Definitions an editor's outline shows, in the forms JavaScript and TypeScript write
 * them: functions exported through `module.exports`, named function expressions passed
 * as arguments or called at once, chained and parenthesized values, functions held by
 * object-literal properties; and what is no definition: a construct or method signature
 * inside an inline object type. Each case is a small file written here and fails
 * without its query pattern.
 */

import assert from "node:assert/strict";
import { parseSource } from "../src/parse/parser.ts";
import type { SymbolRecord } from "../src/types.ts";

async function symbolsOf(path: string, source: string): Promise<SymbolRecord[]> {
  const parsed = await parseSource(path, source);
  assert.equal(parsed.error, undefined, `${path}: ${parsed.error}`);
  return parsed.symbols;
}

/** `kind qualifiedName line` per symbol, in order. */
function outline(symbols: SymbolRecord[]): string[] {
  return symbols.map((s) => `${s.kind} ${s.qualifiedName} ${s.line}`);
}

for (const ext of ["js", "ts"]) {
  Deno.test(`${ext}: module.exports = function query() defines query`, async () => {
    const symbols = await symbolsOf(
      `lib/query.${ext}`,
      "module.exports = function query(options) {\n  return options;\n};\n",
    );
    assert.deepEqual(outline(symbols), ["function query 1"]);
    assert.equal(symbols[0].signature, "function query(options)");
  });

  Deno.test(`${ext}: an anonymous module.exports function is no symbol named exports`, async () => {
    const symbols = await symbolsOf(`lib/anon.${ext}`, "module.exports = function () {};\n");
    assert.deepEqual(outline(symbols), []);
  });

  Deno.test(`${ext}: a named function expression passed as an argument`, async () => {
    const symbols = await symbolsOf(
      `lib/request.${ext}`,
      [
        "defineGetter(req, 'protocol', function protocol() {",
        "  return 'http';",
        "});",
        "items.map(function (x) { return x; });",
        "(function boot() {})();",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), ["function protocol 1", "function boot 5"]);
  });

  Deno.test(`${ext}: named function expressions returned, listed or in an operand`, async () => {
    const symbols = await symbolsOf(
      `lib/wrap.${ext}`,
      [
        "function bind(fn) {",
        "  return function wrap() { return fn(); };",
        "}",
        "const handlers = [function onData() {}, () => 0];",
        "const pick = ready || function fallback() {};",
        "const make = (base) => function made() { return base; };",
        "validators[type] = function validator(thing) {};",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), [
      "function bind 1",
      "function bind.wrap 2",
      "constant handlers 4",
      "function handlers.onData 4",
      "constant pick 5",
      "function pick.fallback 5",
      "function make 6",
      "function make.made 6",
      "function validator 7",
    ]);
  });

  Deno.test(`${ext}: a class assigned to a member is named by itself when it has a name`, async () => {
    const symbols = await symbolsOf(
      `lib/dep.${ext}`,
      [
        "module.exports = class Plugin {};",
        "Dependency.Template = class DependencyTemplate {};",
        "Dependency.Anonymous = class {};",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), [
      "class Plugin 1",
      "class DependencyTemplate 2",
      "class Anonymous 3",
    ]);
  });

  Deno.test(`${ext}: chained assignments define every name of the chain`, async () => {
    const symbols = await symbolsOf(
      `lib/app.${ext}`,
      [
        "var proto = module.exports = function (options) {",
        "  return options;",
        "};",
        "exports.a = exports.b = () => 1;",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), ["function proto 1", "function a 4", "function a.b 4"]);
  });

  Deno.test(`${ext}: a parenthesized function value is the declared name's function`, async () => {
    const symbols = await symbolsOf(
      `lib/lodash.${ext}`,
      [
        "var runInContext = (function runInContext(context) {",
        "  function baseEach(x) { return x; }",
        "  return baseEach(context);",
        "});",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), [
      "function runInContext 1",
      "function runInContext.baseEach 2",
    ]);
  });

  Deno.test(`${ext}: object-literal properties holding functions are methods`, async () => {
    const symbols = await symbolsOf(
      `lib/config.${ext}`,
      [
        "export const config = {",
        "  connector: () => new Subject(),",
        "  reset: function () {},",
        "  'quoted-key': async () => 1,",
        "  size: 3,",
        "  build() {},",
        "};",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), [
      "constant config 1",
      "method config.connector 2",
      "method config.reset 3",
      "method config.quoted-key 4",
      "method config.build 6",
    ]);
  });
}

Deno.test("ts: a construct signature inside an inline type is no method of the interface", async () => {
  const symbols = await symbolsOf(
    "src/options.ts",
    [
      "export interface Options {",
      "  WebSocket?: { new (url: string): WebSocket; close(): void };",
      "  connect(): void;",
      "}",
      "type Shape = { area(): number };",
      "interface Factory {",
      "  new (size: number): Factory;",
      "}",
      "declare class Socket {",
      "  send(data: string): void;",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(outline(symbols), [
    "interface Options 1",
    "method Options.connect 3",
    "type Shape 5",
    "interface Factory 6",
    "method Factory.new 7",
    "class Socket 9",
    "method Socket.send 10",
  ]);
});

Deno.test("go: methods of an inline interface type and types local to a function are no symbols", async () => {
  const symbols = await symbolsOf(
    "cmp/options.go",
    [
      "package cmp",
      "",
      "func Reporter(r interface{ PushStep(int) }) {}",
      "",
      "type Option interface {",
      "\tfilter() bool",
      "}",
      "",
      "func compare() {",
      "\ttype filtered interface{ isFiltered() bool }",
      "\ttype pair struct{ x, y int }",
      "}",
      "",
      "type (",
      "\tName string",
      "\tPath struct{}",
      ")",
      "",
    ].join("\n"),
  );
  assert.deepEqual(outline(symbols), [
    "function Reporter 3",
    "interface Option 5",
    "method Option.filter 6",
    "function compare 9",
    "type Name 15",
    "struct Path 16",
  ]);
});

Deno.test("rust: a trait's associated types are its children", async () => {
  const symbols = await symbolsOf(
    "src/ser.rs",
    "pub trait Serializer {\n    type Ok;\n    type Error: Error;\n    fn done(self) -> Self::Ok;\n}\n",
  );
  assert.deepEqual(outline(symbols), [
    "trait Serializer 1",
    "type Serializer.Ok 2",
    "type Serializer.Error 3",
    "method Serializer.done 4",
  ]);
});

Deno.test("csharp: operators and local functions are definitions", async () => {
  const symbols = await symbolsOf(
    "Src/JToken.cs",
    [
      "class JToken {",
      "  public static explicit operator bool(JToken t) { return true; }",
      "  public static JToken operator +(JToken a, JToken b) => a;",
      "  void Walk() {",
      "    int Depth(int x) => x;",
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(outline(symbols), [
    "class JToken 1",
    "method JToken.operator 2",
    "method JToken.operator 3",
    "method JToken.Walk 4",
    "function JToken.Walk.Depth 5",
  ]);
});

Deno.test("python: module-level names are variables, names inside functions are not", async () => {
  const symbols = await symbolsOf(
    "attr/_config.py",
    "_run_validators = True\nMAX = 3\n\ndef set_run_validators(run):\n    previous = run\n",
  );
  assert.deepEqual(outline(symbols), [
    "variable _run_validators 1",
    "constant MAX 2",
    "function set_run_validators 4",
  ]);
});

Deno.test("kotlin and php: members of an anonymous object or class are no one's methods", async () => {
  const kotlin = await symbolsOf(
    "src/Tasks.kt",
    "class Tasks {\n  fun make() = object : Runnable {\n    override fun run() {}\n  }\n}\n",
  );
  assert.deepEqual(outline(kotlin).filter((s) => s.includes("run")), []);
  assert.ok(outline(kotlin).includes("method Tasks.make 2"));
  const php = await symbolsOf(
    "src/Tasks.php",
    "<?php\nclass Tasks {\n  function make() {\n    return new class { function run() {} };\n  }\n}\n",
  );
  assert.deepEqual(outline(php), ["class Tasks 2", "method Tasks.make 3"]);
});

for (const ext of ["js", "ts"]) {
  Deno.test(`${ext}: top-level var, let and destructured names are definitions`, async () => {
    const symbols = await symbolsOf(
      `lib/units.${ext}`,
      [
        "const { isArray } = Array;",
        "const [first, second] = pair;",
        "var numberMap = { 1: 'a' };",
        "export let DATE = 2;",
        "function f() {",
        "  var inner = 1;",
        "  let other = 2;",
        "}",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outline(symbols), [
      "constant isArray 1",
      "constant first 2",
      "constant second 2",
      "variable numberMap 3",
      "variable DATE 4",
      "function f 5",
    ]);
  });
}

Deno.test("ts: ambient declarations of constants and variables", async () => {
  const symbols = await symbolsOf(
    "src/types.ts",
    "export declare const unsetMarker: unique symbol\ndeclare var process: unknown;\n",
  );
  assert.deepEqual(outline(symbols), ["constant unsetMarker 1", "variable process 2"]);
});
