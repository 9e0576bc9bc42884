/**
 * Tests of the parsing layer: per language, the exact symbols of a fixture in
 * `tests/fixtures/langs/` (kind, qualified name, first line, name line, last line), then
 * signatures, docs and parents where each language has something to show; malformed
 * input and unknown languages; the `; inherits:` mechanism of the query loader.
 */

import assert from "node:assert/strict";
import { languageIds, languageOf, loadGrammar, parseSource } from "../src/parse/parser.ts";
import { languageForPath, LANGUAGES } from "../src/parse/languages.ts";
import { readQuery } from "../src/parse/query_loader.ts";
import type { SymbolRecord } from "../src/types.ts";

const FIXTURES = new URL("./fixtures/langs/", import.meta.url);

async function parseFixture(name: string) {
  const source = await Deno.readTextFile(new URL(name, FIXTURES));
  const parsed = await parseSource(name, source);
  assert.equal(parsed.error, undefined, `${name}: ${parsed.error}`);
  return parsed;
}

/** `kind qualifiedName startLine-line-endLine` per symbol, in order. */
function outline(symbols: SymbolRecord[]): string[] {
  return symbols.map((s) => `${s.kind} ${s.qualifiedName} ${s.startLine}-${s.line}-${s.endLine}`);
}

function find(symbols: SymbolRecord[], qualifiedName: string, kind?: string): SymbolRecord {
  const s = symbols.find((x) => x.qualifiedName === qualifiedName && (!kind || x.kind === kind));
  assert.ok(s, `no symbol ${qualifiedName}`);
  return s;
}

const EXPECTED: Record<string, string[]> = {
  "README.md": [
    "section Sample Project 5-5-25",
    "section Sample Project > Install 9-9-21",
    "section Sample Project > Install > From source 18-18-21",
    "section Sample Project > Usage 22-22-25",
    "section Setext Title 26-26-34",
    "section Setext Title > Sub Section 31-31-34",
  ],
  "Sample.cs": [
    "namespace Demo.App 3-3-47",
    "class Demo.App.Greeter 6-7-29",
    "constant Demo.App.Greeter.MaxLength 9-9-9",
    "constructor Demo.App.Greeter.Greeter 11-11-14",
    "method Demo.App.Greeter.Greet 19-20-23",
    "class Demo.App.Greeter.Nested 25-25-28",
    "method Demo.App.Greeter.Nested.Deep 27-27-27",
    "interface Demo.App.IGreeter 31-31-34",
    "method Demo.App.IGreeter.Greet 33-33-33",
    "struct Demo.App.Vec 36-36-40",
    "method Demo.App.Vec.Length 39-39-39",
    "enum Demo.App.Mode 42-42-42",
    "class Demo.App.Person 44-44-44",
    "type Demo.App.Handler 46-46-46",
  ],
  "Sample.java": [
    "class Sample 8-9-48",
    "constant Sample.LIMIT 11-11-11",
    "constructor Sample.Sample 16-16-18",
    "method Sample.run 21-22-26",
    "method Sample.items 28-28-31",
    "class Sample.Nested 33-33-35",
    "method Sample.Nested.deep 34-34-34",
    "interface Sample.Callback 37-37-39",
    "method Sample.Callback.call 38-38-38",
    "enum Sample.Level 41-41-47",
    "method Sample.Level.isHigh 44-44-46",
    "class Pair 50-50-53",
    "constructor Pair.Pair 51-51-52",
    "interface Marker 55-55-57",
    "method Marker.value 56-56-56",
  ],
  "config.json": [
    "field name 2-2-2",
    "field version 3-3-3",
    "section scripts 4-4-7",
    "field tags 8-8-8",
    "section nested 9-9-9",
  ],
  "config.toml": [
    "field title 2-2-2",
    "section package 4-4-10",
    "field package.name 5-5-5",
    "field package.version 6-6-6",
    "field package.authors 7-7-10",
    "section dependencies 13-13-14",
    "field dependencies.serde 14-14-14",
    "section bin 16-16-20",
    "field bin.name 17-17-17",
    "field bin.notes 18-18-20",
  ],
  "config.yaml": [
    "field name 2-2-2",
    "section server 4-4-6",
    "field description 8-8-10",
    "section list 11-11-13",
    "field second 15-15-15",
  ],
  "sample.c": [
    "constant BUF_SIZE 4-4-4",
    "macro SQUARE 7-7-7",
    "constant LIMIT 9-9-9",
    "struct point 12-12-15",
    "type size_t2 17-19-19",
    "enum color 21-21-21",
    "type ulong 23-23-23",
    "struct value 25-25-28",
    "function add 33-33-36",
    "function name_of 38-39-42",
  ],
  "sample.cpp": [
    "namespace geo 3-3-40",
    "constant geo.PI 6-6-6",
    "class geo.Shape 9-9-16",
    "constructor geo.Shape.Shape 11-11-11",
    "method geo.Shape.area 14-14-14",
    "method geo.Shape.name 15-15-15",
    "struct geo.Point 18-18-22",
    "method geo.Point.sum 21-21-21",
    "function geo.max_of 24-25-27",
    "constructor geo.Shape.Shape 29-29-29",
    "method geo.Shape.area 32-32-34",
    "enum geo.Kind 36-36-36",
    "type geo.Id 38-38-38",
    "function main 42-42-44",
  ],
  "sample.go": [
    "constant MaxConns 7-7-7",
    "constant ModeA 11-11-11",
    "constant ModeB 12-12-12",
    "variable verbose 15-15-15",
    "struct Server 18-18-20",
    "interface Handler 23-23-25",
    "method Handler.Handle 24-24-24",
    "type ID 27-27-27",
    "type Count 29-29-29",
    "method Server.Start 33-33-36",
    "method Server.Stop 38-38-38",
    "function NewServer 41-41-43",
    "function Map 45-45-47",
    "struct Pair 51-51-51",
    "type Alias 52-52-52",
  ],
  "sample.js": [
    "constant path 3-3-3",
    "constant DEFAULT_PORT 6-6-6",
    "function start 11-11-14",
    "function start.local 12-12-12",
    "function greet 17-17-17",
    "function legacy 19-19-21",
    "class Server 23-23-39",
    "constructor Server.constructor 24-24-27",
    "method Server.listen 30-30-32",
    "method Server.of 34-34-36",
    "method Server.items 38-38-38",
    "function util 43-43-43",
    "function stream 45-45-45",
  ],
  "sample.kt": [
    "constant MAX_COUNT 6-6-6",
    "class Greeter 11-12-27",
    "method Greeter.greet 14-14-16",
    "constructor Greeter.constructor 18-18-18",
    "method Greeter.create 21-21-21",
    "class Greeter.Inner 24-24-26",
    "method Greeter.Inner.deep 25-25-25",
    "interface Speaker 29-29-31",
    "method Speaker.speak 30-30-30",
    "class Point 33-33-33",
    "enum Color 35-35-35",
    "class Registry 37-37-39",
    "method Registry.register 38-38-38",
    "type Name 41-41-41",
    "function add 44-44-44",
    "function shout 46-46-48",
  ],
  "sample.lua": [
    "constant MAX_SIZE 5-5-5",
    "function M.add 9-9-11",
    "method M.greet 14-14-16",
    "function helper 18-18-21",
    "function helper.inner 19-19-19",
    "function global_fn 23-23-24",
    "function M.mul 26-26-28",
  ],
  "sample.php": [
    "namespace App\\Models 3-3-3",
    "constant VERSION 5-5-5",
    "class Greeter 10-11-29",
    "constant Greeter.LIMIT 13-13-13",
    "constructor Greeter.__construct 15-15-17",
    "method Greeter.greet 20-20-23",
    "method Greeter.make 25-25-28",
    "interface Speaker 31-31-34",
    "method Speaker.speak 33-33-33",
    "trait Loud 36-36-42",
    "method Loud.shout 38-38-41",
    "enum Suit 44-44-52",
    "method Suit.label 48-48-51",
    "function add 55-55-58",
  ],
  "sample.py": [
    "constant MAX_RETRIES 5-5-5",
    "variable default_name 6-6-6",
    "function helper 9-9-17",
    "function helper.inner 14-14-15",
    "class Session 21-22-41",
    "constructor Session.__init__ 27-27-28",
    "method Session.name 30-31-33",
    "method Session.request 35-35-37",
    "class Session.Inner 39-39-41",
    "method Session.Inner.deep 40-40-41",
    "function square 44-44-44",
  ],
  "sample.rb": [
    "constant MAX_SIZE 4-4-4",
    "module Util 7-7-16",
    "method Util.shout 9-9-11",
    "method Util.helper 13-13-15",
    "class User 19-19-34",
    "constructor User.initialize 22-22-24",
    "method User.greet 27-27-29",
    "class User.Profile 31-31-33",
    "method User.Profile.show 32-32-32",
    "function top_level 36-36-38",
  ],
  "sample.rs": [
    "constant MAX 6-6-6",
    "constant GREETING 8-8-8",
    "struct Point 11-12-15",
    "enum Dir 18-18-21",
    "trait Draw 24-24-31",
    "method Draw.draw 26-26-26",
    "method Draw.name 28-28-30",
    "method Point.new 35-35-37",
    "method Point.len 39-39-44",
    "function Point.len.square 40-40-42",
    "method Wrapper.draw 48-48-50",
    "method Point.fmt 54-54-56",
    "type Pair 59-59-59",
    "macro square 62-62-66",
    "function add 69-69-71",
    "module inner 73-73-75",
    "function inner.helper 74-74-74",
    "struct Bits 77-77-80",
  ],
  "sample.scala": [
    "module Util 6-6-11",
    "constant Util.MaxSize 8-8-8",
    "function Util.helper 10-10-10",
    "class Greeter 14-14-19",
    "method Greeter.greet 16-16-18",
    "trait Speaker 21-21-23",
    "method Speaker.speak 22-22-22",
    "class Point 25-25-27",
    "method Point.sum 26-26-26",
    "class Color 29-29-29",
    "type Name 30-30-30",
    "function add 32-32-32",
  ],
  "sample.sh": [
    "constant GREETING 5-5-5",
    "function greet 9-9-11",
    "function cleanup 13-13-15",
    "function main 17-17-19",
  ],
  "sample.swift": [
    "constant maxCount 4-4-4",
    "class Greeter 7-7-21",
    "constructor Greeter.init 10-10-12",
    "method Greeter.greet 15-16-18",
    "struct Point 23-23-26",
    "method Point.length 25-25-25",
    "interface Speaker 28-28-30",
    "method Speaker.speak 29-29-29",
    "enum Direction 32-32-36",
    "method Direction.flipped 35-35-35",
    "method Point.doubled 39-39-39",
    "type Name 42-42-42",
    "function add 45-45-47",
  ],
  "sample.ts": [
    "constant MAX_PAGE 4-4-4",
    "variable counter 6-6-6",
    "interface Shape 9-9-12",
    "method Shape.area 10-10-10",
    "type Point 14-14-14",
    "enum Color 16-16-19",
    "function add 25-25-27",
    "function over 29-29-29",
    "function over 30-30-30",
    "function over 31-31-33",
    "class Circle 35-36-50",
    "constructor Circle.constructor 37-37-37",
    "method Circle.area 40-41-43",
    "method Circle.name 45-45-47",
    "method Circle.create 49-49-49",
    "class Base 52-52-54",
    "method Base.run 53-53-53",
    "namespace Geometry 56-56-60",
    "function Geometry.unit 57-57-59",
    "function double 62-62-62",
    "function main 64-64-67",
    "function main.local 65-65-65",
  ],
  "sample.tsx": [
    "interface ButtonProps 4-4-6",
    "function Button 9-9-11",
    "function Card 13-13-13",
    "class Panel 15-15-19",
    "method Panel.render 16-16-18",
  ],
};

for (const [file, expected] of Object.entries(EXPECTED)) {
  Deno.test(`outline of ${file}`, async () => {
    const parsed = await parseFixture(file);
    assert.deepEqual(outline(parsed.symbols), expected);
    assert.equal(parsed.syntaxErrors, 0);
    for (const s of parsed.symbols) {
      assert.equal(s.file, file);
      assert.equal(s.language, parsed.language);
      const separator = parsed.language === "markdown" ? " > " : ".";
      assert.equal(s.qualifiedName, s.parent ? `${s.parent}${separator}${s.name}` : s.name);
      assert.ok(s.startLine <= s.line && s.line <= s.endLine, `${s.qualifiedName} lines`);
      assert.ok(s.signature.length > 0 && s.signature.length <= 200);
    }
  });
}

Deno.test("python: signatures, docstrings, decorators", async () => {
  const { symbols } = await parseFixture("sample.py");
  const helper = find(symbols, "helper");
  assert.equal(helper.signature, "def helper(value: int, *, scale: float = 1.0) -> float:");
  assert.equal(helper.doc, "Scale a value.\n\nReturns the scaled value.");
  assert.equal(helper.parent, null);
  const session = find(symbols, "Session");
  assert.equal(session.signature, "class Session(Base, metaclass=Meta):");
  assert.equal(session.doc, "A session with a server.");
  assert.equal(session.startLine, 21, "starts at the decorator");
  assert.equal(session.line, 22);
  const name = find(symbols, "Session.name");
  assert.equal(name.kind, "method");
  assert.equal(name.parent, "Session");
  assert.equal(name.doc, "The name.", "raw-string docstring");
  assert.equal(
    find(symbols, "Session.request").signature,
    "async def request(self, method, path):",
  );
  assert.equal(find(symbols, "Session.__init__").kind, "constructor");
  assert.equal(find(symbols, "MAX_RETRIES").signature, "MAX_RETRIES = 3");
  assert.equal(find(symbols, "helper.inner").parent, "helper", "a nested def is a child");
  assert.equal(find(symbols, "default_name").kind, "variable", "a module-level name");
  assert.ok(!symbols.some((s) => s.name === "TIMEOUT"), "a class attribute is no symbol");
});

Deno.test("typescript: exports, overloads, decorators, arrow functions", async () => {
  const { symbols } = await parseFixture("sample.ts");
  const add = find(symbols, "add");
  assert.equal(add.signature, "function add(a: number, b: number): number");
  assert.equal(add.doc, "Adds two numbers.\n@param a first");
  assert.equal(find(symbols, "MAX_PAGE").doc, "Largest page size.");
  assert.equal(find(symbols, "MAX_PAGE").signature, "const MAX_PAGE = 100");
  assert.equal(find(symbols, "Shape").doc, "Plain interface comment.");
  assert.equal(find(symbols, "Shape.area").kind, "method");
  assert.equal(symbols.filter((s) => s.name === "over").length, 3, "each overload");
  const area = find(symbols, "Circle.area");
  assert.equal(area.startLine, 40, "starts at its decorator");
  assert.equal(area.doc, "Area of the circle.");
  assert.equal(area.signature, "area(): number");
  assert.equal(find(symbols, "Circle").startLine, 35);
  assert.equal(find(symbols, "Circle.constructor").kind, "constructor");
  assert.equal(find(symbols, "double").kind, "function");
  assert.equal(find(symbols, "double").signature, "const double = (n: number): number =>");
  assert.equal(find(symbols, "Geometry.unit").parent, "Geometry");
  assert.equal(find(symbols, "main.local").kind, "function", "a nested arrow is a child");
  assert.equal(find(symbols, "counter").kind, "variable", "a top-level `let` is a variable");
});

Deno.test("tsx and javascript", async () => {
  const tsx = await parseFixture("sample.tsx");
  assert.equal(tsx.language, "tsx");
  assert.equal(find(tsx.symbols, "Button").doc, "A button.");
  assert.equal(find(tsx.symbols, "Panel.render").kind, "method");
  const js = (await parseFixture("sample.js")).symbols;
  assert.equal(find(js, "start").doc, "Start the server.");
  assert.equal(find(js, "start").signature, "function start(port = DEFAULT_PORT)");
  assert.equal(find(js, "greet").doc, "Arrow helper.");
  assert.equal(find(js, "Server.listen").doc, "Listen on a port.");
  assert.equal(find(js, "Server.listen").signature, "async listen(port)");
  assert.equal(find(js, "DEFAULT_PORT").kind, "constant");
  assert.equal(find(js, "start.local").parent, "start", "a nested function is a child");
});

Deno.test("go: receivers qualify methods", async () => {
  const { symbols } = await parseFixture("sample.go");
  const start = find(symbols, "Server.Start");
  assert.equal(start.kind, "method");
  assert.equal(start.parent, "Server");
  assert.equal(start.signature, "func (s *Server) Start() error");
  assert.equal(start.doc, "Start starts the server.\nIt blocks.");
  assert.equal(find(symbols, "Server", "struct").signature, "type Server struct");
  assert.equal(find(symbols, "Handler").signature, "type Handler interface");
  assert.equal(find(symbols, "Handler.Handle").kind, "method");
  assert.equal(find(symbols, "MaxConns").doc, "MaxConns is the connection limit.");
  assert.equal(find(symbols, "ModeA").doc, "ModeA is the first mode.");
  assert.equal(find(symbols, "Pair").doc, "Pair is two values.");
});

Deno.test("rust: impl blocks, attributes, doc comments", async () => {
  const { symbols } = await parseFixture("sample.rs");
  const point = find(symbols, "Point", "struct");
  assert.equal(point.startLine, 11, "starts at #[derive]");
  assert.equal(point.line, 12);
  assert.equal(point.doc, "A point in space.");
  assert.equal(point.signature, "pub struct Point");
  const make = find(symbols, "Point.new");
  assert.equal(make.kind, "method");
  assert.equal(make.parent, "Point");
  assert.equal(make.doc, "Make a point.");
  assert.equal(make.signature, "pub fn new(x: i32, y: i32) -> Self");
  assert.equal(find(symbols, "Wrapper.draw").parent, "Wrapper");
  assert.equal(find(symbols, "Draw.draw").doc, "Draw it.");
  assert.equal(find(symbols, "square").kind, "macro");
  assert.equal(find(symbols, "square").signature, "macro_rules! square");
  assert.equal(find(symbols, "MAX").doc, "Maximum size.");
  assert.equal(find(symbols, "Point.len.square").kind, "function", "a nested fn is a child");
});

Deno.test("java: annotations, javadoc, constructors", async () => {
  const { symbols } = await parseFixture("Sample.java");
  const cls = find(symbols, "Sample");
  assert.equal(cls.startLine, 8);
  assert.equal(cls.line, 9);
  assert.equal(cls.doc, "A sample class.");
  assert.equal(cls.signature, "public class Sample extends Base implements Runnable");
  const run = find(symbols, "Sample.run");
  assert.equal(run.startLine, 21);
  assert.equal(run.signature, "public void run()", "annotations are not the signature");
  assert.equal(run.doc, "Runs it.");
  assert.equal(find(symbols, "Sample.Sample").kind, "constructor");
  assert.equal(find(symbols, "Sample.items").signature, "public <T> List<T> items( List<T> in)");
  assert.equal(find(symbols, "Sample.LIMIT").kind, "constant");
  assert.equal(symbols.filter((s) => s.name === "run").length, 1, "anonymous class is local");
});

Deno.test("other languages: docs, parents, signatures", async () => {
  const cpp = (await parseFixture("sample.cpp")).symbols;
  assert.equal(find(cpp, "geo.Shape.area", "method").signature, "virtual double area() const = 0");
  assert.equal(cpp.filter((s) => s.qualifiedName === "geo.Shape.area").length, 2);
  assert.equal(find(cpp, "geo.max_of").startLine, 24, "starts at template<>");
  const c = (await parseFixture("sample.c")).symbols;
  assert.equal(find(c, "add").doc, "Add two ints.");
  assert.equal(find(c, "SQUARE").kind, "macro");
  const cs = (await parseFixture("Sample.cs")).symbols;
  assert.equal(find(cs, "Demo.App.Greeter.Greet").startLine, 19);
  assert.equal(find(cs, "Demo.App.Greeter.Greet").signature, "public string Greet(string who)");
  const rb = (await parseFixture("sample.rb")).symbols;
  assert.equal(find(rb, "Util.shout").doc, "Shout a string.");
  assert.equal(find(rb, "Util").signature, "module Util");
  const php = (await parseFixture("sample.php")).symbols;
  assert.equal(find(php, "Greeter").doc, "Greets people.");
  assert.equal(find(php, "Greeter.__construct").kind, "constructor");
  const kt = (await parseFixture("sample.kt")).symbols;
  assert.equal(find(kt, "MAX_COUNT").doc, "Maximum count.");
  assert.equal(find(kt, "Greeter.create").kind, "method", "companion members");
  const swift = (await parseFixture("sample.swift")).symbols;
  assert.equal(find(swift, "Point.doubled").parent, "Point", "extension scope");
  assert.equal(find(swift, "Greeter.greet").startLine, 15);
  const lua = (await parseFixture("sample.lua")).symbols;
  assert.equal(find(lua, "M.add").doc, "Add two numbers.\nReturns the sum.");
  assert.equal(find(lua, "M.greet").kind, "method");
  const sh = (await parseFixture("sample.sh")).symbols;
  assert.equal(find(sh, "greet").doc, "Print a greeting.\nTakes one argument.");
  const scala = (await parseFixture("sample.scala")).symbols;
  assert.equal(find(scala, "Greeter.greet").signature, "def greet(who: String): String");
});

Deno.test("text formats: markdown, json, yaml, toml", async () => {
  const md = (await parseFixture("README.md")).symbols;
  const fromSource = find(md, "Sample Project > Install > From source");
  assert.equal(fromSource.kind, "section");
  assert.equal(fromSource.parent, "Sample Project > Install");
  assert.equal(fromSource.doc, "Clone it.");
  assert.ok(!md.some((s) => s.name === "Not a heading"), "fenced code is skipped");
  const json = (await parseFixture("config.json")).symbols;
  assert.equal(find(json, "scripts").kind, "section");
  assert.equal(find(json, "version").signature, '"version": "1.0.0"');
  const yaml = (await parseFixture("config.yaml")).symbols;
  assert.equal(find(yaml, "server").doc, "The server block.");
  assert.ok(!yaml.some((s) => s.name === "not"), "block scalars are not keys");
  const toml = (await parseFixture("config.toml")).symbols;
  assert.equal(find(toml, "bin.notes").endLine, 20);
  assert.ok(!toml.some((s) => s.line === 19), "multi-line strings are not keys");
});

Deno.test("malformed source still yields symbols and counts errors", async () => {
  const py = await parseSource(
    "bad.py",
    "def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass C:\n    def m(self): pass\n",
  );
  assert.ok(py.syntaxErrors > 0);
  assert.equal(py.error, undefined);
  assert.ok(py.symbols.some((s) => s.name === "ok"));
  assert.ok(py.symbols.some((s) => s.qualifiedName === "C.m"));
  const ts = await parseSource("bad.ts", "export function good(): number { return 1 }\nclass {\n");
  assert.ok(ts.syntaxErrors > 0);
  assert.ok(ts.symbols.some((s) => s.name === "good"));
  for (
    const [file, text] of [["a.json", '{"a": [1, {'], ["b.json", "[1, 2"], ["c.yaml", ":\n- - :"], [
      "d.toml",
      '[x\nk = """\n',
    ], ["e.md", "```\n# x"]]
  ) {
    const parsed = await parseSource(file, text);
    assert.equal(parsed.error, undefined, file);
  }
  assert.deepEqual((await parseSource("a.json", '{"a": [1, {')).symbols.map((s) => s.name), ["a"]);
});

Deno.test("unknown language or file is an error value, not a throw", async () => {
  const byName = await parseSource("logo.png", "hello");
  assert.match(byName.error ?? "", /unsupported file 'logo.png'/);
  assert.deepEqual(byName.symbols, []);
  assert.equal(byName.lines, 1);
  const byId = await parseSource("a.py", "x = 1", "cobol");
  assert.match(byId.error ?? "", /unsupported language 'cobol'/);
  await assert.rejects(() => loadGrammar("markdown"));
});

Deno.test("language table", async () => {
  assert.equal(languageOf("src/a.py"), "python");
  assert.equal(languageOf("x/Component.TSX"), "tsx");
  assert.equal(languageOf("lib/x.h"), "c");
  assert.equal(languageOf("Rakefile"), "ruby");
  assert.equal(languageOf(".gitignore"), undefined);
  // A name no row holds is plain text (curl's option docs); a binary format's is nothing.
  assert.equal(languageOf("docs/cmdline-opts/remove-on-error.d"), "text");
  assert.equal(languageOf("lib/Makefile.inc"), "text");
  assert.equal(languageOf("conf/app.yml"), "yaml");
  assert.equal(languageForPath("Main.cs")?.grammar?.wasm, "tree-sitter-c_sharp.wasm");
  assert.deepEqual(languageIds(), LANGUAGES.map((l) => l.id));
  const header = await parseSource("geo.h", "namespace geo {\nclass Shape { int area(); };\n}\n");
  assert.equal(header.language, "cpp");
  assert.equal((await parseSource("c.h", "struct p { int x; };\nint f(void);\n")).language, "c");
});

Deno.test("every query compiles against its grammar", async () => {
  for (const lang of LANGUAGES) {
    if (lang.grammar) await loadGrammar(lang.id);
  }
});

Deno.test("empty files and CRLF", async () => {
  const empty = await parseSource("e.go", "");
  assert.equal(empty.lines, 0);
  assert.deepEqual(empty.symbols, []);
  const crlf = await parseSource("w.py", "# Says hi.\r\ndef hi():\r\n    pass\r\n");
  assert.equal(crlf.symbols[0].doc, "Says hi.");
  assert.equal(crlf.symbols[0].signature, "def hi():");
});

Deno.test("a C++ header is parsed as cpp even when the caller says c", async () => {
  const parsed = await parseSource("geo.h", "namespace geo {\nclass Shape {};\n}\n", "c");
  assert.equal(parsed.language, "cpp");
  assert.deepEqual(parsed.symbols.map((s) => s.qualifiedName), ["geo", "geo.Shape"]);
});

Deno.test("grammars load concurrently", async () => {
  const ids = LANGUAGES.filter((l) => l.grammar).map((l) => l.id);
  const all = await Promise.all(ids.map((id) => parseSource(`x.${id}`, "", id)));
  assert.deepEqual(all.map((p) => p.error), ids.map(() => undefined));
});

// ------------------------------------------------------- query includes (`; inherits:`)

const QUERIES = new URL("../src/parse/queries/", import.meta.url);

Deno.test("typescript.scm holds JavaScript's patterns plus its own, overrides replacing", async () => {
  const js = await Deno.readTextFile(new URL("javascript.scm", QUERIES));
  const ts = await readQuery(new URL("typescript.scm", QUERIES));
  assert.ok(!ts.includes("; inherits:"), "the include line is consumed");
  // Written only in javascript.scm: an inherited section (imports) and an `; inherited`
  // line (functions) bring them in.
  for (const pattern of ["(generator_function_declaration", '(#eq? @_require "require")']) {
    assert.ok(js.includes(pattern) && ts.includes(pattern), `${pattern} inherited`);
  }
  assert.ok(ts.includes("(function_signature") && ts.includes("(interface_declaration"));
  // `classes` is replaced: JavaScript's class pattern names classes by `identifier`,
  // TypeScript's grammar by `type_identifier`.
  const jsClass = "(class_declaration\n  name: (identifier) @name";
  assert.ok(js.includes(jsClass) && !ts.includes(jsClass), "the replaced section is gone");
  assert.ok(ts.includes("(class_declaration\n  name: (type_identifier) @name"));
  // The base's section order holds: functions, classes, …, imports.
  const at = (text: string) => ts.indexOf(text);
  assert.ok(at("(generator_function_declaration") < at("(function_signature"));
  assert.ok(at("(function_signature") < at("(interface_declaration"));
  assert.ok(at("(interface_declaration") < at("; section: imports"));
});

Deno.test("cpp.scm holds C's patterns plus its own", async () => {
  const cpp = await readQuery(new URL("cpp.scm", QUERIES));
  // c.scm's includes section, which cpp.scm does not name.
  assert.ok(cpp.includes("(preproc_include path: (system_lib_string) @import.module)"));
  assert.ok(cpp.includes("(namespace_definition"));
});

Deno.test("query includes: sections replaced, extended, dropped; chains; errors", async () => {
  const dir = await Deno.makeTempDir({ prefix: "codectx-queries-" });
  const url = (name: string) => new URL(`file://${dir}/${name}.scm`);
  const write = (name: string, lines: string[]) =>
    Deno.writeTextFile(`${dir}/${name}.scm`, lines.join("\n") + "\n");
  try {
    await write("base", [
      "; base heading",
      "; section: a",
      "(a_base) @x",
      "; section: b",
      "(b_base) @x",
      "; section: c",
      "(c_base) @x",
    ]);
    // Sections named out of order; `c` empty; `b` around its inherited text.
    await write("child", [
      "; inherits: base",
      "; child heading",
      "; section: c",
      "; section: b",
      "(b_before) @x",
      "; inherited",
      "(b_after) @x",
      "; section: a",
      "(a_child) @x",
    ]);
    assert.equal(
      await readQuery(url("child")),
      [
        "; child heading",
        "; section: a",
        "(a_child) @x",
        "; section: b",
        "(b_before) @x",
        "(b_base) @x",
        "(b_after) @x",
        "; section: c",
        "",
      ].join("\n"),
    );
    // A base may itself inherit: the grandchild extends the child's `b`.
    await write("grandchild", ["; inherits: child", "; section: b", "; inherited", "(b_g) @x"]);
    const grand = await readQuery(url("grandchild"));
    assert.ok(grand.includes("(b_before) @x\n(b_base) @x\n(b_after) @x\n(b_g) @x\n"), grand);
    assert.ok(grand.includes("(a_child) @x") && !grand.includes("(a_base)"));
    // A file without the include line is read as it is.
    assert.equal(await readQuery(url("base")), await Deno.readTextFile(`${dir}/base.scm`));

    // Errors: a missing base names the file it looked for; a section the base lacks is
    // named; a file inheriting from itself is a cycle.
    await write("orphan", ["; inherits: nowhere", "(x) @y"]);
    await assert.rejects(readQuery(url("orphan")), (e: Error) => e.message.includes("nowhere.scm"));
    await write("typo", ["; inherits: base", "; section: bb", "(x) @y"]);
    await assert.rejects(
      readQuery(url("typo")),
      /section 'bb' is not a section of .*base\.scm/,
    );
    await write("loop", ["; inherits: loop", "; section: a"]);
    await assert.rejects(readQuery(url("loop")), /inherits from itself/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("python: a name declared global or nonlocal is no local of the function", async () => {
  const source = [
    "counter = 0",
    "",
    "def bump():",
    "    global counter",
    "    counter = counter + 1",
    "",
    "def other():",
    "    counter = 5",
    "    return counter",
    "",
    "def outer():",
    "    n = 0",
    "    def inner():",
    "        nonlocal n",
    "        n += 1",
    "    return n",
    "",
  ].join("\n");
  const parsed = await parseSource("app/state.py", source);
  const sites = (parsed.references ?? [])
    .filter((r) => r.name === "counter" || r.name === "n")
    .map((r) => `${r.name} ${r.line}:${r.column} ${r.kind}`);
  assert.deepEqual(sites, [
    "counter 1:1 definition",
    "counter 4:12 read",
    "counter 5:5 write",
    "counter 5:15 read",
  ]);
});

Deno.test("javascript: the alias of an imported or re-exported name is an import reference", async () => {
  const source = [
    'import { isValid as _isValid } from "../create/valid";',
    'export { default as mode, sum } from "./mode.js";',
    "",
  ].join("\n");
  const parsed = await parseSource("src/index.js", source);
  const sites = (parsed.references ?? []).map((r) => `${r.name} ${r.line}:${r.column} ${r.kind}`);
  assert.deepEqual(sites, [
    "isValid 1:10 import",
    "_isValid 1:21 import",
    "default 2:10 import",
    "mode 2:21 import",
    "sum 2:27 import",
  ]);
});
