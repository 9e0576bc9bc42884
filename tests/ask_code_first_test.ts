/**
 * `ask` on a question about code quotes code first, even where the README describes the
 * same behaviour in more of the question's words; a question about the project (how to
 * install it) keeps the prose where the search ranks it.
 */

import assert from "node:assert/strict";
import { asksAboutCode } from "../src/context/retrieve.ts";
import { callTool, type Payload, withExecutor } from "./helpers.ts";

const FILES = {
  "README.md": [
    "# finder",
    "",
    "A program to find files.",
    "",
    "## Which files are ignored",
    "",
    "finder decides which files to ignore: files listed in .gitignore and .ignore files,",
    "hidden files and ignored folders. To show ignored files, pass --no-ignore; hidden files",
    "are shown with --hidden. The ignore files are read in every folder.",
    "",
    "## Install",
    "",
    "Install finder with cargo install finder.",
    "",
  ].join("\n"),
  "src/walk.rs": [
    "/// The walker: skips what .gitignore says.",
    "pub fn build_walker(hidden: bool, read_ignore: bool) -> Walker {",
    "    let mut w = Walker::new();",
    "    w.hidden(hidden);",
    "    w.git_ignore(read_ignore);",
    "    w",
    "}",
    "",
    "pub struct Walker {}",
    "impl Walker {",
    "    pub fn new() -> Walker { Walker {} }",
    "    pub fn hidden(&mut self, on: bool) {}",
    "    pub fn git_ignore(&mut self, on: bool) {}",
    "}",
    "",
  ].join("\n"),
};

Deno.test("what a question is about", () => {
  assert.ok(asksAboutCode("how does finder decide which files to ignore?"));
  assert.ok(asksAboutCode("where is the walker built?"));
  assert.ok(!asksAboutCode("how do I install finder?"));
  assert.ok(!asksAboutCode("what licence is it under?"));
});

Deno.test("ask quotes code first for a question about code", async () => {
  await withExecutor(FILES, async (ex) => {
    const a = await callTool(ex, "ask", {
      question: "how does finder decide which files to ignore?",
    });
    const sources = (a.sources as Payload[]).map((s) => `${s.file}:${s.line}`);
    assert.ok(sources.length > 1, sources.join("\n"));
    assert.equal(sources[0].split(":")[0], "src/walk.rs", sources.join("\n"));
    const install = await callTool(ex, "ask", { question: "how do I install finder?" });
    const first = (install.sources as Payload[])[0];
    assert.equal(first.file, "README.md");
  });
});
