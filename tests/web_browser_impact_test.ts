/**
 * The impact view of `codectx web` in chromium, on a git repository made here: the working
 * tree against HEAD (a deleted function still called, a changed signature) shows the likely
 * breaks first and a picture of what reaches the change; a pasted diff is read the same way;
 * a revision git does not know is the API's 400, shown in the view. Screenshots are saved
 * (the folder is printed).
 */

import assert from "node:assert/strict";
import { type Browser, launch, needChromium, open, serveProject } from "./web_browser_helpers.ts";
import { http } from "./surfaces_helpers.ts";

const BEFORE: Record<string, string> = {
  "shop/prices.py": [
    "def net(amount, rate):",
    "    return amount * (1 - rate)",
    "",
    "",
    "def tax(amount):",
    "    return amount * 0.2",
    "",
  ].join("\n"),
  "shop/cart.py": [
    "from shop.prices import net, tax",
    "",
    "",
    "def total(items):",
    "    return sum(net(i, 0.1) + tax(i) for i in items)",
    "",
    "",
    "def checkout(items):",
    "    return round(total(items), 2)",
    "",
  ].join("\n"),
  "shop/api.py": [
    "from shop.cart import checkout",
    "",
    "",
    "def handle(request):",
    "    return {'total': checkout(request['items'])}",
    "",
  ].join("\n"),
  "tests/test_cart.py": [
    "from shop.cart import total",
    "",
    "",
    "def test_total():",
    "    assert total([10]) == 11.0",
    "",
  ].join("\n"),
};

/** The edit: net takes a currency, tax is gone. */
const AFTER = {
  ...BEFORE,
  "shop/prices.py": [
    "def net(amount, rate, currency):",
    "    return amount * (1 - rate)",
    "",
  ].join("\n"),
};

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("web impact view: likely breaks, a picture of what is reached, a pasted diff", async (t) => {
  await needChromium();
  const shots = await Deno.makeTempDir({ prefix: "codectx-web-impact-shots-" });
  console.log(`screenshots: ${shots}`);
  // The server indexes the edited tree; the commit holds the files as they were.
  const project = await serveProject(AFTER);
  await Deno.writeTextFile(`${project.root}/shop/prices.py`, BEFORE["shop/prices.py"]);
  await git(project.root, "init", "-q");
  await git(project.root, "add", ".");
  await git(project.root, "-c", "user.name=t", "-c", "user.email=t@e.org", "commit", "-qm", "one");
  await Deno.writeTextFile(`${project.root}/shop/prices.py`, AFTER["shop/prices.py"]);
  let browser: Browser | null = null;
  try {
    browser = await launch();
    const { page, left } = browser;
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const base = project.srv.url + "/";

    await t.step("the working tree against HEAD", async () => {
      await open(page, base + "#/impact?base=HEAD");
      await page.waitForSelector("#impact-out .impact-summary");
      await page.waitForSelector("#graph-out svg g.node");
      await page.screenshot({ path: `${shots}/impact-head.png`, fullPage: true });
      const breaks = await page.$$eval(".likely-breaks li", (ls) => ls.map((l) => l.textContent));
      assert.match(breaks[0] ?? "", /^tax deleted, still used/);
      assert.match(breaks[1] ?? "", /^net signature changed, still used/);
      const labels = await page.$$eval(
        "#graph-out svg g.node text",
        (ts) => ts.map((t) => t.textContent ?? ""),
      );
      for (const name of ["net", "tax", "total", "checkout", "handle", "test_total"]) {
        assert.ok(labels.includes(name), `${name} in ${labels}`);
      }
      const hops = await page.$$eval("#impact-out h3", (hs) => hs.map((h) => h.textContent));
      assert.deepEqual(hops.filter((h) => h?.startsWith("Hop")), ["Hop 1", "Hop 2", "Hop 3"]);
      assert.match(await page.textContent("ul.tests") ?? "", /tests\/test_cart\.py/);
    });

    await t.step("a pasted diff, about to be applied", async () => {
      await open(page, base + "#/impact");
      await page.fill(
        "#impact-diff",
        "--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -8,2 +8,2 @@\n" +
          "-def checkout(items):\n+def checkout(items, coupon):\n     return round(total(items), 2)\n",
      );
      await page.click("#impact-form button");
      await page.waitForSelector("#graph-out svg g.node");
      await page.screenshot({ path: `${shots}/impact-diff.png`, fullPage: true });
      const breaks = await page.$$eval(".likely-breaks li", (ls) => ls.map((l) => l.textContent));
      assert.deepEqual(breaks.map((b) => b?.split(",")[0]), ["checkout signature changed"]);
      const labels = await page.$$eval(
        "#graph-out svg g.node text",
        (ts) => ts.map((t) => t.textContent ?? ""),
      );
      assert.deepEqual(labels.sort(), ["checkout", "handle"]);
    });

    await t.step("a revision git does not know: 400, said in the view", async () => {
      const r = await http(`${project.srv.url}/api/impact?base=no-such-rev`);
      assert.equal(r.status, 400);
      await open(page, base + "#/impact?base=no-such-rev");
      await page.waitForSelector("#impact-out .note.error");
      assert.match(
        await page.textContent("#impact-out .note.error") ?? "",
        /base 'no-such-rev' is not a revision git knows/,
      );
    });

    assert.deepEqual(errors, []);
    assert.deepEqual(left, []);
  } finally {
    await browser?.close();
    await project.stop();
  }
});
