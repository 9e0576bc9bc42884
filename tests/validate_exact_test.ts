/**
 * `validate_code` inside the project a snippet belongs to: a package's own names,
 * re-exported through its `__init__.py` or an `export … from`, resolve; a package imports
 * itself by the name its manifest gives; Python 3's `input` is not a security issue.
 * A misspelled name is still reported.
 */

import assert from "node:assert/strict";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

interface Validated {
  unresolved_symbols: Array<{ name: string; kind: string; suggestions: string[] }>;
  security_issues: Array<{ test_id: string; line: number }>;
}

/** Validates `code` as `file_path` inside a project made of `files`. */
async function validateIn(
  files: Record<string, string>,
  code: string,
  filePath: string,
): Promise<Validated> {
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  // No time limit: the first call starts the analysis workers, slow on a loaded machine.
  const ex = await createExecutor(root, { indexDir, workers: 0, timeoutMs: 0 });
  try {
    const r = await ex.execute({
      tool_name: "validate_code",
      arguments: { code, file_path: filePath },
    });
    assert.ok(r.success, r.error ?? "");
    return r.result_payload as unknown as Validated;
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
}

const unresolved = (v: Validated) => v.unresolved_symbols.map((u) => `${u.kind} ${u.name}`);

/** A package laid out like click: names defined in submodules, re-exported by `__init__`. */
const CLICK_LIKE = {
  "pyproject.toml": '[project]\nname = "clicky"\ndependencies = []\n',
  "src/clicky/__init__.py": `from .decorators import command as command
from .decorators import group
from .utils import echo as echo
from . import types
`,
  "src/clicky/decorators.py": `def command(name=None):
    return name


def group(name=None):
    return name
`,
  "src/clicky/utils.py": `def echo(message=None):
    print(message)
`,
  "src/clicky/types.py": `class ParamType:
    pass
`,
  "src/clicky/_compat.py": "def term_len(x):\n    return len(x)\n",
};

Deno.test("a package's names re-exported by its __init__.py resolve inside the package", async () => {
  const v = await validateIn(
    CLICK_LIKE,
    `import clicky
from clicky import echo, group, types


@clicky.command()
def main():
    echo("hi")
    return clicky.echo, types.ParamType, group
`,
    "src/clicky/cli.py",
  );
  assert.deepEqual(unresolved(v), []);
});

Deno.test("a misspelled re-exported name is still reported, with the right name suggested", async () => {
  const v = await validateIn(
    CLICK_LIKE,
    `import clicky
from clicky import echoo


@clicky.comand()
def main():
    return echoo
`,
    "src/clicky/cli.py",
  );
  assert.deepEqual(
    v.unresolved_symbols.map((u) => [u.kind, u.name, u.suggestions[0]]),
    [["import", "clicky.echoo", "echo"], ["member", "clicky.comand", "command"]],
  );
});

Deno.test("a star import in __init__.py makes its names unknown, not missing", async () => {
  const v = await validateIn(
    {
      "pkg/__init__.py": "from .core import *\n",
      "pkg/core.py": "def run():\n    pass\n",
    },
    "from pkg import run\nimport pkg\npkg.run()\n",
    "app.py",
  );
  assert.deepEqual(unresolved(v), []);
});

/** A package laid out like got: its manifest names it, its index re-exports. */
const GOT_LIKE = {
  "package.json": JSON.stringify({ name: "gotlike", type: "module", dependencies: {} }),
  "source/index.ts": `import create from "./create.js";
export * from "./types.js";
export { default as Options } from "./options.js";
const got = create();
export default got;
`,
  "source/create.ts": "export default function create() {\n  return {};\n}\n",
  "source/options.ts": "export default class Options {}\n",
  "source/types.ts": "export type Method = 'get' | 'post';\n",
};

Deno.test("a package imports itself by its manifest's name", async () => {
  const v = await validateIn(
    GOT_LIKE,
    `import got from "gotlike";
import { Options } from "./index.js";
import create from "./create.js";
export const client = got;
export const o = new Options();
export const c = create();
`,
    "source/client.ts",
  );
  assert.deepEqual(unresolved(v), []);
});

Deno.test("a misspelled package name or re-export is still reported", async () => {
  const v = await validateIn(
    GOT_LIKE,
    `import got from "gotlik";
import { Optoins } from "./options.js";
export const client = got;
`,
    "source/client.ts",
  );
  assert.deepEqual(unresolved(v), ["import gotlik", "import Optoins"]);
});

Deno.test("Python 3's input() is not reported as Python 2's B322", async () => {
  const v = await validateIn(
    { "app.py": "x = 1\n" },
    `name = input("name? ")
print(name)
eval(name)
`,
    "app.py",
  );
  assert.deepEqual(v.security_issues.map((i) => `${i.line} ${i.test_id}`), ["3 B307"]);
});

Deno.test("typing_extensions is known without a manifest entry (typeshed ships it)", async () => {
  const v = await validateIn(
    { "app.py": "x = 1\n" },
    `import typing as t

if t.TYPE_CHECKING:
    import typing_extensions as te
    from typing_extensions import Self

import typing_extensionz
`,
    "app.py",
  );
  assert.deepEqual(unresolved(v), ["import typing_extensionz"]);
});

Deno.test("a call inside a subscript target or a parameter default is checked, not bound", async () => {
  const v = await validateIn(
    { "util.py": "def import_string(name):\n    return name\n" },
    `from util import import_string


def load(names, make=import_strinng("m"), *args, key: str = "k", **kw):
    table = {}
    table[import_strng(names)] = None
    a, (b, c) = 1, (2, 3)
    return table, a, b, c, make, args, key, kw
`,
    "app.py",
  );
  assert.deepEqual(unresolved(v), ["call import_strinng", "call import_strng"]);
  const names = v.unresolved_symbols.map((u) => u.suggestions[0]);
  assert.deepEqual(names, ["import_string", "import_string"]);
});

Deno.test("a member of a required Node module is checked; a parameter of that name is not", async () => {
  const files = {
    "package.json": JSON.stringify({ name: "app" }),
    "lib/app.js": "exports.x = 1;\n",
  };
  const v = await validateIn(
    files,
    `var http = require('http');

exports.listen = function listen() {
  var server = http.createSServer(this);
  return server.listen.apply(server, arguments);
};
`,
    "lib/app.js",
  );
  assert.deepEqual(unresolved(v), ["member http.createSServer"]);
  const shadowed = await validateIn(
    files,
    `var http = require('http');

exports.wrap = function wrap(http) {
  return http.notAModuleMember();
};
`,
    "lib/app.js",
  );
  assert.deepEqual(unresolved(shadowed), []);
});

Deno.test("relative imports are checked against the project module they name", async () => {
  const ok = await validateIn(
    CLICK_LIKE,
    `from . import types
from .utils import echo
from .decorators import command, group
from .. import clicky


def main():
    echo(types.ParamType, command, group, clicky)
`,
    "src/clicky/cli.py",
  );
  assert.deepEqual(unresolved(ok), []);
  const wrong = await validateIn(
    CLICK_LIKE,
    `from .utils import echoo
from .utilz import echo
from . import typess
from ._compat import term_llen
`,
    "src/clicky/cli.py",
  );
  assert.deepEqual(
    wrong.unresolved_symbols.map((u) => [u.kind, u.name, u.suggestions[0]]),
    [
      ["import", "src.clicky.utils.echoo", "echo"],
      ["import", ".utilz", "utils"],
      ["import", "src.clicky.typess", "types"],
      ["import", "src.clicky._compat.term_llen", "term_len"],
    ],
  );
});

Deno.test("a misspelled base class is reported; a known one is not", async () => {
  const v = await validateIn(
    CLICK_LIKE,
    `import enum
from .types import ParamType


class Kind(enum.Enum):
    A = 1


class Choice(ParamType):
    pass


class Other(ParamTyp, enum.Enumm):
    pass
`,
    "src/clicky/cli.py",
  );
  assert.deepEqual(
    v.unresolved_symbols.map((u) => [u.kind, u.name, u.suggestions[0]]),
    [["call", "ParamTyp", "ParamType"], ["member", "enum.Enumm", "Enum"]],
  );
});

/** A Go module with a package of its own (`cobra/doc`). */
const GO_MODULE = {
  "go.mod": "module github.com/example/cli\n\ngo 1.19\n",
  "command.go": `package cli

type Command struct{ Use string }
`,
  "doc/md.go": `package doc

import "github.com/example/cli"

var Header = "# "

const Depth = 2

type Options struct{}

func GenMarkdown(c *cli.Command) string { return Header + c.Use }

func helper() {}
`,
  "doc/md_test.go": "package doc\n\nfunc TestOnly() {}\n",
};

const GO_SNIPPET = `package cli

import (
	"fmt"
	"strings"

	"github.com/example/cli/doc"
)

var trims = map[string]func(string) string{"space": strings.TrimSpace}

func Render(c *Command) string {
	var b strings.Builder
	b.WriteString(doc.GenMarkdown(c))
	_ = doc.Options{}
	return fmt.Sprintf("%s%d", doc.Header, doc.Depth) + strings.ToUpper(b.String())
}
`;

Deno.test("Go package members: the standard library's and the project's are checked", async () => {
  const ok = await validateIn(GO_MODULE, GO_SNIPPET, "render.go");
  assert.deepEqual(unresolved(ok), []);
  // A misspelled standard member (one edit from a real one), a project member that its
  // package does not declare, an unexported one, a test file's: each reported (`strings`
  // stays the package although a variable's value uses it).
  const wrong = GO_SNIPPET.replace("fmt.Sprintf", "fmt.Sprinntf")
    .replace("doc.GenMarkdown(c)", "doc.GenMarkdownn(c) + doc.helper() + doc.TestOnly()")
    .replace("strings.ToUpper", "strings.toUpper");
  const v = await validateIn(GO_MODULE, wrong, "render.go");
  assert.deepEqual(unresolved(v).sort(), [
    "member fmt.Sprinntf",
    "member github.com/example/cli/doc.GenMarkdownn",
    "member github.com/example/cli/doc.TestOnly",
    "member github.com/example/cli/doc.helper",
    "member strings.toUpper",
  ]);
  const sprint = v.unresolved_symbols.find((u) => u.name === "fmt.Sprinntf");
  assert.equal(sprint?.suggestions[0], "Sprintf");
  // A standard name the list lacks and that misspells none it has may be a later release's.
  const later = GO_SNIPPET.replace("strings.ToUpper", "strings.CutSuffixLater");
  assert.deepEqual(unresolved(await validateIn(GO_MODULE, later, "render.go")), []);
});
