/**
 * Test tables (issue 13): Go rows of an anonymous struct type (`tests := []struct{ flags
 * []Flag }{…}`, `for _, tt := range []struct{ in XY }{…}`) ranged over give their fields'
 * types, so `tc.flags` elements and `tt.in` reach the methods of those types — the shape of
 * the test tables in go-cmp and cobra. On a small project written here, through the parser
 * and through the tools.
 */

import assert from "node:assert/strict";
import { receiverText } from "../src/facts/text.ts";
import { parseSource } from "../src/parse/parser.ts";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

const FILES: Record<string, string> = {
  "go.mod": "module example.com/tables\n\ngo 1.21\n",
  "flags/flag.go": `package flags

type FlagSet struct{}

type Flag interface {
	Apply(set *FlagSet) error
}

type Result struct{ n int }

func (r Result) Equal() bool { return r.n == 0 }

type BoolFlag struct{}

func (f *BoolFlag) Apply(set *FlagSet) error { return nil }
`,
  "flags/flag_test.go": `package flags

func checkApply(set *FlagSet) {
	tests := []struct {
		name  string // what the case is
		flags []Flag \`json:"flags"\`
		x, y  Result
		inner struct{ r *Result }
	}{
		{name: "one", flags: []Flag{&BoolFlag{}}},
	}
	for _, tc := range tests {
		for _, flags := range tc.flags {
			flags.Apply(set)
		}
		tc.x.Equal()
		tc.y.Equal()
		tc.inner.r.Equal()
		tc.flags[0].Apply(set)
	}
}

func checkRows() {
	for _, tt := range []struct {
		label string
		in    Result
	}{{label: "zero"}} {
		tt.in.Equal()
	}
	for _, f := range []*BoolFlag{{}} {
		f.Apply(nil)
	}
	cases := map[string]struct{ want Result }{"a": {}}
	for _, c := range cases {
		c.want.Equal()
	}
}

func checkMade() {
	getResult := func() *Result { return &Result{} }
	r := getResult()
	r.Equal()
	var made = func() (res *Result, err error) { return nil, nil }
	m, _ := made()
	m.Equal()
	_ = []interface{}{(*BoolFlag).Apply, (&BoolFlag{}).Apply, (Result).Equal}
	Result{}.Equal()
}
`,
};

Deno.test("parser: a Go test table's rows give their fields' types, through range and index", async () => {
  const f = await parseSource("flags/flag_test.go", FILES["flags/flag_test.go"]);
  const calls = (f.references ?? []).filter((r) => r.kind === "call" && r.receiverKind).map((r) =>
    `${r.line} ${r.name} ${r.receiverKind} ${r.receiver ? receiverText(r.receiver) : ""}`
  );
  assert.deepEqual(calls, [
    "14 Apply typed []Flag []",
    "16 Equal typed Result",
    "17 Equal typed Result",
    "18 Equal typed Result",
    "19 Apply typed []Flag []",
    "28 Equal typed Result",
    "31 Apply typed BoolFlag",
    "35 Equal typed Result",
    "42 Equal typed Result",
    "45 Equal typed Result",
    "47 Equal typed Result",
  ]);
  // Method expressions and values of a type in parentheses (`(*T).M`, `(&T{}).M`).
  const reads = (f.references ?? []).filter((r) =>
    r.kind === "read" && r.line === 46 && r.receiverKind
  ).map((r) => `${r.name} ${r.receiverKind} ${r.receiver && receiverText(r.receiver)}`);
  assert.deepEqual(reads, [
    "Apply name BoolFlag",
    "Apply typed BoolFlag",
    "Equal name Result",
  ]);
});

Deno.test("parser: a row of an unknown field or a row used whole is no typed receiver", async () => {
  const f = await parseSource(
    "t_test.go",
    `package t

func check() {
	tests := []struct{ n int }{}
	for _, tc := range tests {
		tc.missing.Equal()
		tc.n.Equal()
	}
}
`,
  );
  const calls = (f.references ?? []).filter((r) => r.kind === "call").map((r) =>
    `${r.name} ${r.receiverKind} ${r.receiver ? receiverText(r.receiver) : ""}`
  );
  assert.deepEqual(calls, ["Equal expr ", "Equal typed int"]);
});

Deno.test("references and callers: methods reached through a Go test table's rows", async () => {
  await withExecutor(FILES, async (ex) => {
    assert.deepEqual(await refLines(ex, "Flag.Apply"), [
      "flags/flag.go:6 definition exact",
      "flags/flag_test.go:14 call inferred",
      "flags/flag_test.go:19 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Result.Equal"), [
      "flags/flag.go:11 definition exact",
      "flags/flag_test.go:16 call inferred",
      "flags/flag_test.go:17 call inferred",
      "flags/flag_test.go:18 call inferred",
      "flags/flag_test.go:28 call inferred",
      "flags/flag_test.go:35 call inferred",
      "flags/flag_test.go:42 call inferred",
      "flags/flag_test.go:45 call inferred",
      "flags/flag_test.go:46 read exact",
      "flags/flag_test.go:47 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "BoolFlag.Apply"), [
      "flags/flag.go:15 definition exact",
      // Calls through the interface it implements (as gopls counts them).
      "flags/flag_test.go:14 call inferred",
      "flags/flag_test.go:19 call inferred",
      "flags/flag_test.go:31 call inferred",
      "flags/flag_test.go:46 read exact",
      "flags/flag_test.go:46 read inferred",
    ]);
    const g = await callTool(ex, "get_call_graph", { symbol_name: "Result.Equal" });
    assert.deepEqual(
      (g.callers as Payload[]).map((c) => `${c.name} ${c.resolution}`).sort(),
      ["checkApply inferred", "checkMade inferred", "checkRows inferred"],
    );
  });
});
