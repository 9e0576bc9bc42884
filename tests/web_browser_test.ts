/**
 * The web page of `codectx web` in a real browser: Debian's chromium driven by
 * `playwright-core` against the real CLI serving a small project in Python, TypeScript and
 * Go written here. Search → result → symbol view; the call-graph and dependency-graph
 * pictures; deep links, the back button and `/`; an error that clears the previous picture;
 * Summary, Ask and Quality; no request leaving 127.0.0.1; and CORS as the browser enforces
 * it. Each step saves a screenshot (the folder is printed).
 */

import assert from "node:assert/strict";
import {
  type Browser,
  launch,
  needChromium,
  nodeLabels,
  open,
  serveProject,
  settled,
} from "./web_browser_helpers.ts";

/** A shop in three languages, with an import cycle and a security finding. */
const PROJECT: Record<string, string> = {
  "README.md":
    "# Shop\n\nA small shop: a cart in Python, a web layer in TypeScript, a calculator in Go.\n",
  "shop/__init__.py": "",
  "shop/cart.py": `"""The shopping cart."""

from shop.prices import price_of


class Cart:
    """Holds items and totals them."""

    def __init__(self):
        self.items = []  # emptied by a new Cart in checkout

    def add(self, name: str) -> None:
        """Put an item in the cart."""
        self.items.append(name)

    def total(self) -> float:
        """Sum of the prices of the items."""
        return sum(price_of(item) for item in self.items)


def checkout(names: list) -> float:
    """Fill a cart with the named items and return what they cost."""
    cart = Cart()
    for name in names:
        cart.add(name)
    print("total of checkout", len(names))
    return cart.total()
`,
  "shop/prices.py": `"""Prices of items, read from a price list."""

from shop.cart import Cart

PRICES = {"apple": 0.5, "pear": 0.75}


def price_of(name: str) -> float:
    """The price of one item, evaluated from the price list."""
    return eval(str(PRICES.get(name, 0)))


def cart_value(cart: Cart) -> float:
    """What a whole cart is worth."""
    return cart.total()


def audit(thing) -> float:
    """The total of anything that can total itself."""
    return thing.total()
`,
  "tests/test_shop.py": `from shop.cart import checkout


def test_checkout_totals():
    assert checkout(["apple"]) == 0.5
`,
  "web/util.ts": `/** Formats an amount of money. */
export function formatTotal(amount: number): string {
  return amount.toFixed(2);
}
`,
  "web/api.ts": `import { formatTotal } from "./util.ts";

/** Answers the total of a basket as text. */
export function totalText(prices: number[]): string {
  return formatTotal(prices.reduce((a, b) => a + b, 0));
}
`,
  "go.mod": "module example.com/shop\n\ngo 1.21\n",
  "pkg/calc/calc.go": `package calc

// Sum adds the numbers.
func Sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}
`,
  "cmd/shop/main.go": `package main

import (
	"fmt"

	"example.com/shop/pkg/calc"
)

func main() {
	fmt.Println(calc.Sum([]float64{1, 2}))
}
`,
};

/** The part of the browser's window the tests read computed styles through. */
type CssWindow = { getComputedStyle(e: unknown): { strokeDasharray: string } };

/** A tiny page on another port that calls the API from the browser and says what happened. */
function corsPage(api: string): string {
  return `<!doctype html><title>cors</title><p id="out">waiting</p><script>
fetch(${JSON.stringify(api + "/health")}).then((r) => r.json())
  .then((h) => { document.getElementById("out").textContent = "allowed " + h.status; })
  .catch((e) => { document.getElementById("out").textContent = "blocked " + e.name; });
</script>`;
}

Deno.test("web page in chromium: views, pictures, deep links, errors, offline, CORS", async (t) => {
  await needChromium();
  const shots = await Deno.makeTempDir({ prefix: "codectx-web-shots-" });
  console.log(`screenshots: ${shots}`);
  const project = await serveProject(PROJECT);
  const srv = project.srv;
  // A second server for the CORS pages, on its own port.
  const other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(corsPage(srv.url), { headers: { "Content-Type": "text/html" } }),
  );
  const otherPort = other.addr.port;
  let browser: Browser | null = null;
  try {
    // A name that is not localhost but still reaches this machine: a foreign origin.
    browser = await launch(["evil.test"]);
    const { context, page, left } = browser;
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    const shot = (name: string) =>
      page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
    const base = srv.url + "/";

    await t.step("search → a result → the symbol view with source and callers", async () => {
      await open(page, base);
      await page.click("h1");
      await page.keyboard.press("/");
      assert.equal(
        await page.evaluate("document.activeElement && document.activeElement.id"),
        "q",
        "/ focuses search",
      );
      await page.keyboard.type("price of one item from the price list");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#search-results li.hit");
      await settled(page);
      assert.match(page.url(), /#\/search\?q=price/);
      const marks = await page.$$eval("#search-results mark", (ms) => ms.map((m) => m.textContent));
      assert.ok(marks.some((m) => /price|item/i.test(m ?? "")), marks.join());
      assert.ok(!marks.some((m) => /^(the|of|from)$/i.test(m ?? "")), "no stop word marked");
      await shot("search");
      await page.click("#search-results a.title:text-is('price_of')");
      await page.waitForSelector("#symbol-name");
      await settled(page);
      assert.equal(await page.textContent("#symbol-name"), "price_of");
      const source = await page.textContent("#symbol-source");
      assert.match(source ?? "", /def price_of\(name: str\) -> float:/);
      // Line numbers start at the symbol's first line (8 in prices.py).
      assert.equal(await page.textContent("#symbol-source tr:first-child td.ln"), "8");
      const callers = await page.textContent("#callers");
      assert.match(callers ?? "", /Cart\.total/);
      assert.match(callers ?? "", /shop\/cart\.py:18/);
      assert.ok(await page.$("#callers .badge[title^=resolution]"), "callers show a resolution");
      const refs = await page.$$eval("#references h4 a", (as) => as.map((a) => a.textContent));
      assert.deepEqual(refs.sort(), ["shop/cart.py", "shop/prices.py"]);
      await shot("symbol");
    });

    await t.step(
      "a reference opens the file view at its line, with outline and imports",
      async () => {
        await page.click("#references a.ln-link[href='#/file/shop/cart.py:18']");
        await page.waitForSelector("#file-name");
        await settled(page);
        assert.equal(await page.textContent("#file-name"), "shop/cart.py");
        assert.ok(await page.$("#file-source tr.focus[data-line='18']"), "line 18 is marked");
        const outline = await page.$$eval("#outline a.name", (as) => as.map((a) => a.textContent));
        assert.deepEqual(outline, ["Cart", "__init__", "add", "total", "checkout"]);
        assert.ok(
          await page.$("#imports a[href='#/file/shop/prices.py']"),
          "import links to its file",
        );
        assert.ok(await page.$("#importers a[href='#/file/shop/prices.py']"), "importer listed");
        // The whole file, numbered from 1.
        const rows = await page.$$eval(
          "#file-source tr",
          (rs) =>
            rs.map((r) => [r.getAttribute("data-line"), r.querySelector(".src")?.textContent]),
        );
        assert.equal(rows.length, 27);
        assert.deepEqual(rows[0], ["1", '"""The shopping cart."""']);
        assert.deepEqual(rows[20], ["21", "def checkout(names: list) -> float:"]);
        // The marked line is scrolled into the middle of the window.
        const box = await page.$eval(
          "#file-source tr.focus",
          (r) => [r.getBoundingClientRect().top, r.ownerDocument.documentElement.clientHeight],
        );
        assert.ok(box[0] > 0 && box[0] < box[1], `line 18 is on screen: ${box}`);
        await shot("file");
        // A name in code links; the same name in a comment or a string does not.
        const linked = async (line: number) =>
          await page.$$eval(
            `#file-source tr[data-line='${line}'] a.name`,
            (as) => as.map((a) => a.textContent),
          );
        assert.deepEqual(await linked(10), [], "a comment holds no link");
        assert.deepEqual(await linked(26), [], "a string holds no link");
        assert.deepEqual(await linked(21), ["checkout"], "a definition's name links");
        assert.deepEqual(await linked(23), ["Cart"], "a call of a class links");
        // A name in the source is a link to its symbol.
        await page.click("#file-source tr[data-line='18'] a.name:text-is('price_of')");
        await page.waitForSelector("#symbol-name:text-is('price_of')");
        await page.goBack();
        await page.waitForSelector("#file-source tr.focus[data-line='18']");
        await page.click("#outline a.name:text-is('checkout')");
        await page.waitForSelector("#symbol-name:text-is('checkout')");
        await page.goBack();
        await page.waitForSelector("#file-name:text-is('shop/cart.py')");
        await page.goBack();
        await page.waitForSelector("#symbol-name:text-is('price_of')");
        // The symbol view's source too: the callee total links in code, not in the string.
        await open(page, base + "#/symbol/checkout");
        await page.waitForSelector("#symbol-source tr[data-line='27']");
        const inSymbol = async (line: number) =>
          await page.$$eval(
            `#symbol-source tr[data-line='${line}'] a.name`,
            (as) => as.map((a) => a.textContent),
          );
        assert.deepEqual(await inSymbol(26), [], "a string in the symbol's source holds no link");
        assert.deepEqual(await inSymbol(27), ["total"], "a callee in code links");
      },
    );

    await t.step(
      "search filters: exact and regex matches are marked; scope in the address",
      async () => {
        await open(page, base + "#/search?q=" + encodeURIComponent("price_of(") + "&mode=exact");
        await page.waitForSelector("#search-results li.hit");
        assert.equal(await page.inputValue("#filter-mode"), "exact");
        const marks = await page.$$eval(
          "#search-results mark",
          (ms) => ms.map((m) => m.textContent),
        );
        assert.ok(
          marks.length >= 2 && marks.every((m) => m === "price_of("),
          marks.join(),
        );
        assert.ok(
          await page.$("#search-results a.where:text-is('shop/cart.py:18:20')"),
          "line and column of the match",
        );
        await open(page, base + "#/search?q=" + encodeURIComponent("def \\w+_of") + "&mode=regex");
        await page.waitForSelector("#search-results mark");
        assert.deepEqual(
          await page.$$eval("#search-results mark", (ms) => ms.map((m) => m.textContent)),
          ["def price_of"],
        );
        await shot("search-regex");
        await page.selectOption("#filter-scope", "all");
        await page.waitForURL(/scope=all/);
        await settled(page);
        assert.match(page.url(), /mode=regex/);
        await page.check("#filter-tests");
        await page.waitForURL(/tests=1/);
        await settled(page);
        await open(page, base + "#/search?q=" + encodeURIComponent("def (") + "&mode=regex");
        assert.match(await page.textContent(".note.error") ?? "", /not a valid regular expression/);
        assert.ok(await page.$("#search-filters"), "the filters stay to correct the pattern");
      },
    );

    await t.step("the call graph is an SVG with the expected nodes; externals fold", async () => {
      await open(page, base + "#/graph/calls/checkout?depth=2");
      const labels = await nodeLabels(page);
      for (const want of ["checkout", "Cart", "Cart.add", "Cart.total", "price_of"]) {
        assert.ok(labels.includes(want), `${want} in ${labels.join(" | ")}`);
      }
      assert.ok(labels.some((l) => /^\+\d+ external: /.test(l)), labels.join(" | "));
      assert.ok(!labels.includes("print"), "builtins are folded by default");
      assert.ok(await page.$("#graph-out svg g.node.center"), "the symbol is marked");
      await shot("callgraph");
      await page.check("#graph-external");
      await page.waitForURL(/external=1/);
      await settled(page);
      assert.ok((await nodeLabels(page)).includes("print"), "external calls shown on request");
      // A click on a node opens that node's graph.
      await page.click("#graph-out svg g.node:has(text:text-is('Cart.total')) a");
      await page.waitForURL(/#\/graph\/calls\/Cart\.total/);
      await settled(page);
      assert.match(await page.textContent("#graph-caption") ?? "", /Calls of Cart\.total/);
    });

    await t.step("the call graph leaves test callers out on request", async () => {
      await open(page, base + "#/graph/calls/checkout");
      assert.ok((await nodeLabels(page)).includes("test_checkout_totals"), "a test caller");
      await page.uncheck("#graph-tests");
      await page.waitForURL(/tests=0/);
      await settled(page);
      assert.ok(!(await nodeLabels(page)).includes("test_checkout_totals"), "no test caller");
      assert.ok(!(await page.isChecked("#graph-tests")));
    });

    await t.step("a call matched by name only is a dashed edge and a 'name' badge", async () => {
      await open(page, base + "#/graph/calls/audit");
      await nodeLabels(page);
      const dash = await page.$eval(
        "#graph-out svg g.edge.res-name path",
        (p) =>
          (p.ownerDocument.defaultView as unknown as CssWindow).getComputedStyle(p).strokeDasharray,
      );
      assert.notEqual(dash, "none", "name-only edges are dashed");
      const exact = await page.$$eval(
        "#graph-out svg g.edge.res-exact path",
        (ps) =>
          ps.map((p) =>
            (p.ownerDocument.defaultView as unknown as CssWindow).getComputedStyle(p)
              .strokeDasharray
          ),
      );
      assert.ok(exact.every((d) => d === "none"), `exact edges are solid: ${exact}`);
      await shot("callgraph-name-only");
      await open(page, base + "#/symbol/audit");
      assert.ok(await page.$("#callees .badge.res-name"), "the callee says name");
      await open(page, base + "#/symbol/Cart.total");
      assert.match(
        await page.textContent("#references-by-resolution") ?? "",
        /\d+ exact.*\d+ name only/,
      );
    });

    await t.step("an error replaces the previous picture", async () => {
      await open(page, base + "#/graph/calls/checkout");
      await nodeLabels(page);
      await page.fill("#graph-subject", "no_such_function_here");
      await page.press("#graph-subject", "Enter");
      await page.waitForSelector(".note.error");
      await settled(page);
      assert.equal(await page.$$eval("svg", (s) => s.length), 0, "the old picture is gone");
      assert.match(await page.textContent(".note.error") ?? "", /no_such_function_here/);
      assert.ok(await page.$("#graph-form"), "the controls stay to correct the request");
      await shot("graph-error");
    });

    await t.step("an error's 'did you mean' suggestions open the view they name", async () => {
      await open(page, base + "#/file/shop/cart.pyy");
      assert.match(await page.textContent(".note.error") ?? "", /did you mean/);
      await page.click(".note.error a:text-is('shop/cart.py')");
      await page.waitForSelector("#file-name:text-is('shop/cart.py')");
      await open(page, base + "#/symbol/price_off");
      await page.click(".note.error a:has-text('price_of')");
      await page.waitForSelector("#symbol-name:text-is('price_of')");
      assert.match(page.url(), /#\/symbol\/price_of\?file=shop%2Fprices\.py$/);
    });

    await t.step("dependency pictures: a file's neighbourhood, the project, cycles", async () => {
      await open(page, base + "#/graph/deps/shop/cart.py");
      const near = await nodeLabels(page);
      assert.ok(near.includes("cart.py") && near.includes("prices.py"), near.join(" | "));
      assert.ok(await page.$("#graph-out svg g.edge.cycle"), "the import cycle is red");
      await shot("deps-file");
      await open(page, base + "#/graph/deps");
      const all = await nodeLabels(page);
      for (const f of ["cart.py", "prices.py", "api.ts", "util.ts", "main.go"]) {
        assert.ok(all.includes(f), `${f} in ${all.join(" | ")}`);
      }
      await open(page, base + "#/graph/deps?fold=1");
      const folded = await nodeLabels(page);
      assert.ok(folded.some((l) => /^shop\/ \(3 files\)$/.test(l)), folded.join(" | "));
      assert.ok(folded.some((l) => /^web\/ \(2 files\)$/.test(l)), folded.join(" | "));
      const cyclic = await page.$$eval(
        "#graph-out g.node.cycle text",
        (ts) => ts.map((x) => x.textContent),
      );
      assert.deepEqual(cyclic, ["shop/ (3 files)"], "a folder holding a cycle is marked");
      await shot("deps-project");
    });

    await t.step("deep links open their view directly; the back button works", async () => {
      await open(page, base + "#/symbol/Cart.add");
      assert.equal(await page.textContent("#symbol-name"), "Cart.add");
      await open(page, base + "#/file/shop/cart.py:14");
      assert.ok(await page.$("#file-source tr.focus[data-line='14']"));
      await open(page, base + "#/graph/calls/checkout?depth=2");
      assert.equal(await page.inputValue("#graph-depth"), "2");
      await nodeLabels(page);
      await page.click("#tabs a[data-tab=summary]");
      await page.waitForSelector("#summary .markdown");
      await page.goBack();
      await page.waitForSelector("#graph-out svg g.node");
      assert.match(page.url(), /#\/graph\/calls\/checkout\?depth=2$/);
    });

    await t.step("Summary and Ask are rendered Markdown with links to file:line", async () => {
      await open(page, base + "#/summary");
      assert.ok(await page.$("#summary .markdown h2"), "headings are elements");
      const text = await page.textContent("#summary") ?? "";
      assert.ok(!/^#{1,6} /m.test(text) && !text.includes("```"), "no raw Markdown");
      assert.ok(
        await page.$("#summary a[href='#/symbol/price_of?file=shop%2Fprices.py'] code"),
        "a key symbol in the text links to its view",
      );
      await shot("summary");
      await open(page, base + "#/ask?q=" + encodeURIComponent("how is the cart total computed?"));
      await page.waitForSelector("#ask-out .markdown");
      const cites = await page.$$eval(
        "#ask-out .markdown a[href^='#/file/']",
        (as) => as.map((a) => a.getAttribute("href")),
      );
      assert.ok(cites.some((h) => /^#\/file\/shop\/cart\.py:\d+$/.test(h ?? "")), cites.join());
      assert.ok(await page.$("#ask-out .markdown pre code"), "code blocks are code");
      await shot("ask");
    });

    await t.step("Quality: complex functions and security findings link to the code", async () => {
      await open(page, base + "#/quality");
      await page.waitForSelector("#worst-functions");
      const fns = await page.$$eval("#worst-functions tbody tr", (rs) => rs.length);
      assert.ok(fns >= 5, `functions: ${fns}`);
      const finding = await page.$("#findings a.where[href='#/file/shop/prices.py:10']");
      assert.ok(finding, await page.textContent("#findings") ?? "no findings");
      assert.match(await page.textContent("#findings") ?? "", /eval/i);
      await shot("quality");
    });

    await t.step("nothing left 127.0.0.1 and the page raised no error", () => {
      assert.deepEqual(left, []);
      assert.ok(requested.length > 10);
      for (const u of requested) {
        const host = new URL(u).hostname;
        assert.ok(host === "127.0.0.1" || u.startsWith("about:"), u);
      }
      assert.ok(requested.some((u) => u.endsWith("/vendor/viz.js")), "the layout library is local");
      assert.deepEqual(pageErrors, []);
    });

    await t.step(
      "CORS: another localhost port may call the API, a foreign origin may not",
      async () => {
        const p = await context.newPage();
        await p.goto(`http://localhost:${otherPort}/`);
        await p.waitForSelector("#out:not(:text-is('waiting'))");
        assert.equal(await p.textContent("#out"), "allowed ok");
        await p.goto(`http://evil.test:${otherPort}/`);
        await p.waitForSelector("#out:not(:text-is('waiting'))");
        assert.equal(await p.textContent("#out"), "blocked TypeError");
        await p.screenshot({ path: `${shots}/cors-blocked.png` });
        await p.close();
      },
    );
  } finally {
    await browser?.close();
    await other.shutdown();
    await project.stop();
  }
});
