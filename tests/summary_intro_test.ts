/**
 * summarize_repo on READMEs and requirement files as real projects write them: the intro is
 * the first sentence of prose, not a line of translation links or badges; a
 * `requirements.txt` that pins a development environment (it installs the project itself,
 * `-e .[extras]`) lists no runtime dependency.
 */

import assert from "node:assert/strict";
import { firstParagraph } from "../src/context/summary.ts";
import { callTool, type Payload, withExecutor } from "./helpers.ts";

const FD_README = [
  "# fd",
  "",
  "[![CICD](https://example.org/badge.svg)](https://example.org/ci)",
  "[[中文](https://example.org/fd-zh)]",
  "[[한국어](https://example.org/fd-kor)]",
  "",
  "`fd` is a program to find entries in your filesystem.",
  "It is a simple, fast alternative to `find`.",
  "",
].join("\n");

Deno.test("the intro skips a line of translation links", () => {
  assert.equal(
    firstParagraph(FD_README),
    "`fd` is a program to find entries in your filesystem. It is a simple, fast alternative to `find`.",
  );
  assert.equal(
    firstParagraph("[English](README.md) | [日本語](README.ja.md)\n\nA tool that does things.\n"),
    "A tool that does things.",
  );
  // Prose that holds a link is prose.
  assert.equal(
    firstParagraph("A client for [HTTP](https://x.org), with pools.\n"),
    "A client for [HTTP](https://x.org), with pools.",
  );
});

Deno.test("requirements pins of a development environment are not runtime dependencies", async () => {
  await withExecutor({
    "README.md": FD_README,
    "pyproject.toml": [
      "[project]",
      'name = "client"',
      'dependencies = ["idna", "sniffio"]',
      "",
    ].join("\n"),
    "requirements.txt": [
      "# tooling",
      "-e .[http2]",
      "mkdocs==1.4.2",
      "black==23.3.0",
      "",
    ].join("\n"),
    "tools/requirements.txt": "pyyaml==6.0\n",
    "client/__init__.py": "def get():\n    pass\n",
  }, async (ex) => {
    const s = await callTool(ex, "summarize_repo", {});
    const deps = (s.dependencies as Payload[]).map((d) => `${d.name} ${d.scope} ${d.manifest}`);
    assert.ok(deps.includes("idna runtime pyproject.toml"), deps.join("\n"));
    assert.ok(deps.includes("mkdocs dev requirements.txt"), deps.join("\n"));
    assert.ok(deps.includes("black dev requirements.txt"), deps.join("\n"));
    // A requirements file that does not install the project is as it was.
    assert.ok(deps.includes("pyyaml runtime tools/requirements.txt"), deps.join("\n"));
    assert.match(s.text as string, /`fd` is a program to find entries/);
    assert.doesNotMatch(s.text as string, /中文/);
  });
});
