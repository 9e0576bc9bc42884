/**
 * Inside a class, its constructors are named after it but are never what the bare name
 * means: in java-diff-utils' `Patch.generate`, `Patch<T> patch = new Patch<>(n);
 * patch.addDelta(…)` calls Patch.addDelta (it was 'by name only': `Patch` read as the
 * constructor).
 */

import assert from "node:assert/strict";
import { refLines, withExecutor } from "./helpers.ts";

Deno.test("a local typed with the enclosing class's name is of that class, not its constructor", async () => {
  await withExecutor({
    "p/Patch.java": `package p;

import java.util.List;

public final class Patch<T> {
    public Patch() {
    }

    public Patch(int size) {
    }

    public void addDelta(String delta) {
    }

    public static <T> Patch<T> generate(List<T> original, List<String> changes) {
        Patch<T> patch = new Patch<>(changes.size());
        for (String change : changes) {
            patch.addDelta(change);
        }
        return patch;
    }
}
`,
  }, async (ex) => {
    const refs = await refLines(ex, "Patch.addDelta");
    assert.ok(refs.includes("p/Patch.java:18 call inferred"), refs.join("\n"));
  });
});
