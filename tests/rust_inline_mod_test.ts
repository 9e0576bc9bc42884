/**
 * Rust: `use super::*` inside an inline `mod tests { … }` names the file's own module, not
 * its parent: such a file does not import the crate root, and the names it brings in are
 * the file's own.
 */

import assert from "node:assert/strict";
import { callTool, refLines, withExecutor } from "./helpers.ts";

const FILES = {
  "Cargo.toml": '[package]\nname = "finder"\nversion = "0.1.0"\n',
  "src/main.rs": "mod walk;\nmod util;\n\nfn main() {\n    walk::scan();\n}\n",
  "src/walk.rs": [
    "use crate::util::helper;",
    "",
    "pub fn scan() {",
    "    helper();",
    "}",
    "",
    "#[cfg(test)]",
    "mod tests {",
    "    use super::*;",
    "",
    "    #[test]",
    "    fn scans() {",
    "        scan();",
    "    }",
    "}",
    "",
  ].join("\n"),
  "src/util.rs": [
    "pub fn helper() {}",
    "",
    "#[cfg(test)]",
    "mod tests {",
    "    use super::*;",
    "    mod deeper {",
    "        use super::super::helper;",
    "        fn again() {",
    "            helper();",
    "        }",
    "    }",
    "    #[test]",
    "    fn helps() {",
    "        helper();",
    "    }",
    "}",
    "",
  ].join("\n"),
};

Deno.test("use super::* in an inline mod tests imports the file's own module", async () => {
  await withExecutor(FILES, async (ex) => {
    const main = await callTool(ex, "get_dependencies", { file_path: "src/main.rs" });
    assert.deepEqual(main.imported_by, []);
    const util = await callTool(ex, "get_dependencies", { file_path: "src/util.rs" });
    assert.deepEqual(util.imported_by, ["src/main.rs", "src/walk.rs"]);
    const refs = await refLines(ex, "helper");
    for (
      const line of [
        "src/util.rs:9 call exact",
        "src/util.rs:14 call exact",
        "src/walk.rs:4 call exact",
      ]
    ) {
      assert.ok(refs.includes(line), `${line}\n${refs.join("\n")}`);
    }
    const scan = await refLines(ex, "scan");
    assert.ok(scan.includes("src/walk.rs:13 call exact"), scan.join("\n"));
  });
});

Deno.test("rust: the items of an inline module are seen by their bare names inside it", async () => {
  await withExecutor({
    "Cargo.toml": '[package]\nname = "globs"\nversion = "0.1.0"\n',
    "src/lib.rs": [
      "pub fn top() {}",
      "",
      "#[cfg(test)]",
      "mod tests {",
      "    struct Options {",
      "        casei: bool,",
      "    }",
      "",
      "    const CASEI: Options = Options { casei: true };",
      "",
      "    fn helper(o: Options) -> bool {",
      "        o.casei",
      "    }",
      "",
      "    #[test]",
      "    fn t() {",
      "        let o: Options = CASEI;",
      "        assert!(helper(o));",
      "    }",
      "}",
      "",
    ].join("\n"),
  }, async (ex) => {
    const options = await refLines(ex, "tests.Options");
    for (
      const want of [
        "src/lib.rs:9 type exact",
        "src/lib.rs:11 type exact",
        "src/lib.rs:17 type exact",
      ]
    ) {
      assert.ok(options.includes(want), `${want} in\n${options.join("\n")}`);
    }
    const helper = await refLines(ex, "tests.helper");
    assert.ok(helper.includes("src/lib.rs:18 call exact"), helper.join("\n"));
  });
});
