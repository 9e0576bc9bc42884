/**
 * The web page of `codectx web`: one HTML document, one stylesheet and one script, served
 * from memory. The page uses only the REST API (`/health`, `/api/*`); it draws call graphs
 * as SVG itself (no CDN, no build step). Text from the API is always set with
 * `textContent`, never as HTML.
 *
 * @module
 */

/** The HTML document. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>codectx</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header>
  <h1>codectx</h1>
  <span id="project" class="muted"></span>
  <span id="state" class="badge">…</span>
  <nav id="tabs">
    <button data-tab="search" class="active">Search</button>
    <button data-tab="symbols">Symbols</button>
    <button data-tab="deps">Dependencies</button>
    <button data-tab="graph">Call graph</button>
    <button data-tab="summary">Summary</button>
    <button data-tab="ask">Ask</button>
  </nav>
</header>
<main>
  <div id="error" class="error" hidden></div>

  <section id="tab-search">
    <form id="search-form" class="bar">
      <input id="search-q" type="search" placeholder="Search code by meaning: e.g. parse the config file" autofocus>
      <select id="search-k" title="results"><option>10</option><option>20</option><option>50</option></select>
      <button>Search</button>
    </form>
    <p id="search-meta" class="muted"></p>
    <ol id="search-results" class="results"></ol>
  </section>

  <section id="tab-symbols" hidden>
    <form id="symbols-form" class="bar">
      <input id="symbols-q" type="search" placeholder="Name (fuzzy): parseConf, p_c, Session.req">
      <select id="symbols-kind">
        <option value="">any kind</option>
        <option>function</option><option>method</option><option>class</option>
        <option>interface</option><option>struct</option><option>enum</option>
        <option>trait</option><option>type</option><option>constant</option>
        <option>variable</option><option>field</option><option>module</option>
      </select>
      <input id="symbols-file" placeholder="file or folder (optional)">
      <button>List</button>
    </form>
    <div class="split">
      <div>
        <table class="grid">
          <thead><tr><th>Name</th><th>Kind</th><th>Where</th></tr></thead>
          <tbody id="symbols-body"></tbody>
        </table>
        <div class="pager">
          <button id="symbols-prev">‹ Prev</button>
          <span id="symbols-page" class="muted"></span>
          <button id="symbols-next">Next ›</button>
        </div>
      </div>
      <aside id="symbol-detail" class="card" hidden></aside>
    </div>
  </section>

  <section id="tab-deps" hidden>
    <form id="deps-form" class="bar">
      <input id="deps-file" placeholder="file, e.g. src/app.py (empty: whole project)">
      <button>Show</button>
    </form>
    <div id="deps-out"></div>
  </section>

  <section id="tab-graph" hidden>
    <form id="graph-form" class="bar">
      <input id="graph-symbol" placeholder="function or method, e.g. main or Greeter.greet">
      <select id="graph-depth" title="depth"><option>1</option><option>2</option><option>3</option></select>
      <button>Draw</button>
    </form>
    <div id="graph-out" class="graph"></div>
  </section>

  <section id="tab-summary" hidden>
    <div id="summary-out"></div>
  </section>

  <section id="tab-ask" hidden>
    <form id="ask-form">
      <textarea id="ask-q" rows="3" placeholder="Ask about this code: where is the config parsed?"></textarea>
      <div class="bar"><button>Ask</button></div>
    </form>
    <div id="ask-out"></div>
  </section>
</main>
</body>
</html>
`;

/** The stylesheet. */
export const PAGE_CSS = `:root {
  --bg: #fbfbfd; --fg: #1d1f24; --muted: #6b7280; --line: #e3e5ea; --accent: #2f6feb;
  --card: #fff; --err-bg: #fff1f0; --err: #b42318; --code: #f5f6f8;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #111318; --fg: #e6e7ea; --muted: #9aa1ad; --line: #2a2e37; --accent: #6ea1ff;
    --card: #181b22; --err-bg: #3a1716; --err: #ffb4ab; --code: #1e222b; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  background: var(--bg); color: var(--fg); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; padding: 10px 20px;
  border-bottom: 1px solid var(--line); background: var(--card); position: sticky; top: 0; z-index: 1; }
h1 { font-size: 18px; margin: 0; letter-spacing: .3px; }
nav { margin-left: auto; display: flex; gap: 4px; flex-wrap: wrap; }
nav button { background: none; border: 1px solid transparent; color: var(--fg); }
nav button.active { border-color: var(--line); background: var(--bg); font-weight: 600; }
main { padding: 16px 20px; max-width: 1200px; margin: 0 auto; }
button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--line);
  background: var(--accent); color: #fff; cursor: pointer; }
button:disabled { opacity: .4; cursor: default; }
input, select, textarea { font: inherit; padding: 6px 8px; border-radius: 6px;
  border: 1px solid var(--line); background: var(--card); color: var(--fg); }
textarea { width: 100%; }
.bar { display: flex; gap: 8px; margin-bottom: 12px; flex-wrap: wrap; }
.bar input[type=search], .bar input:first-child { flex: 1; min-width: 200px; }
.muted { color: var(--muted); }
.badge { font-size: 12px; padding: 2px 8px; border-radius: 10px; border: 1px solid var(--line); }
.badge.ready { color: #0a7d3a; border-color: #0a7d3a; }
.badge.indexing { color: #a15c00; border-color: #a15c00; }
.error { background: var(--err-bg); color: var(--err); padding: 8px 12px; border-radius: 6px;
  margin-bottom: 12px; white-space: pre-wrap; }
.results { padding-left: 20px; }
.results li { margin-bottom: 14px; }
pre { background: var(--code); padding: 8px 10px; border-radius: 6px; overflow: auto;
  max-height: 320px; margin: 6px 0 0; font: 12.5px/1.4 ui-monospace, Menlo, Consolas, monospace; }
a { color: var(--accent); cursor: pointer; text-decoration: none; }
a:hover { text-decoration: underline; }
.split { display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; }
.split.with-detail { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
@media (max-width: 800px) { .split.with-detail { grid-template-columns: 1fr; } }
table.grid { width: 100%; border-collapse: collapse; }
.grid th, .grid td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); }
.grid tbody tr { cursor: pointer; }
.grid tbody tr:hover { background: var(--code); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
.pager { display: flex; gap: 10px; align-items: center; margin-top: 8px; }
.graph svg { background: var(--card); border: 1px solid var(--line); border-radius: 8px; max-width: 100%; }
.graph .node rect { fill: var(--code); stroke: var(--line); }
.graph .node.center rect { fill: var(--accent); stroke: var(--accent); }
.graph .node.center text { fill: #fff; font-weight: 600; }
.graph .node text { fill: var(--fg); font: 12px ui-monospace, Menlo, Consolas, monospace; }
.graph .edge { stroke: var(--muted); fill: none; stroke-width: 1.3; }
.graph .node { cursor: pointer; }
h2 { font-size: 15px; margin: 16px 0 8px; }
`;

/** The script (plain ES2020, no template literals so that it can live in this string). */
export const PAGE_JS = `"use strict";
(function () {
  var token = sessionStorage.getItem("codectx-token") || "";
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, props, children) {
    var e = document.createElement(tag);
    if (props) Object.keys(props).forEach(function (k) {
      if (k === "text") e.textContent = props[k];
      else if (k === "class") e.className = props[k];
      else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), props[k]);
      else e.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function showError(msg) { var e = $("error"); e.textContent = msg || ""; e.hidden = !msg; }

  function api(path, init) {
    init = init || {};
    init.headers = init.headers || {};
    if (token) init.headers["Authorization"] = "Bearer " + token;
    return fetch(path, init).then(function (res) {
      if (res.status === 401) {
        var t = prompt("This codectx server needs its token:");
        if (t) { token = t; sessionStorage.setItem("codectx-token", t); return api(path, init); }
      }
      return res.json().catch(function () { return {}; }).then(function (body) {
        if (!res.ok) {
          var err = body && body.error ? body.error : { code: String(res.status), message: res.statusText };
          var msg = err.code === "not_implemented"
            ? err.message + " — this part of codectx has not landed yet."
            : err.message;
          throw new Error(msg);
        }
        return body;
      });
    });
  }
  function q(params) {
    var parts = [];
    Object.keys(params).forEach(function (k) {
      if (params[k] !== undefined && params[k] !== "") parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(params[k]));
    });
    return parts.length ? "?" + parts.join("&") : "";
  }
  function run(p) { showError(""); return p.catch(function (e) { showError(e.message); }); }
  function where(item) { return item.file + ":" + item.line; }

  // tabs
  function openTab(name) {
    document.querySelectorAll("#tabs button").forEach(function (b) {
      b.classList.toggle("active", b.getAttribute("data-tab") === name);
    });
    document.querySelectorAll("main > section").forEach(function (s) { s.hidden = s.id !== "tab-" + name; });
    showError("");
    if (name === "summary") loadSummary();
  }
  document.querySelectorAll("#tabs button").forEach(function (b) {
    b.addEventListener("click", function () {
      history.replaceState(null, "", "#" + b.getAttribute("data-tab"));
      openTab(b.getAttribute("data-tab"));
    });
  });

  // health
  function health() {
    api("/health").then(function (h) {
      $("project").textContent = h.project.name + " — " + h.project.files + " files, " + h.project.symbols + " symbols";
      var s = $("state");
      s.textContent = h.index.state;
      s.className = "badge " + h.index.state;
      if (h.index.state !== "ready") setTimeout(health, 2000);
    }).catch(function (e) { showError(e.message); });
  }

  // search
  $("search-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var text = $("search-q").value.trim();
    if (!text) return;
    run(api("/api/search" + q({ q: text, top_k: $("search-k").value })).then(function (r) {
      $("search-meta").textContent = r.results.length + " results in " + Math.round(r.took_ms) + " ms";
      var list = clear($("search-results"));
      r.results.forEach(function (it) {
        list.appendChild(el("li", null, [
          el("a", { text: where(it), onclick: function () { openFile(it.file); } }),
          " ",
          el("span", { class: "muted", text: (it.symbol || "") + " " + (it.kind || "") + " · score " + it.score.toFixed(3) }),
          el("pre", { text: it.snippet }),
        ]));
      });
    }));
  });

  // symbols
  var symOffset = 0, symLimit = 50;
  function loadSymbols() {
    var params = { q: $("symbols-q").value.trim(), kind: $("symbols-kind").value, file: $("symbols-file").value.trim(), limit: symLimit, offset: symOffset };
    return run(api("/api/symbols" + q(params)).then(function (r) {
      var body = clear($("symbols-body"));
      r.symbols.forEach(function (s) {
        body.appendChild(el("tr", { onclick: function () { showSymbol(s); } }, [
          el("td", { text: s.qualified_name || s.name }),
          el("td", { text: s.kind }),
          el("td", { text: where(s) }),
        ]));
      });
      var last = Math.min(symOffset + symLimit, r.total);
      $("symbols-page").textContent = r.total ? (symOffset + 1) + "–" + last + " of " + r.total : "no symbols";
      $("symbols-prev").disabled = symOffset === 0;
      $("symbols-next").disabled = last >= r.total;
    }));
  }
  function showSymbol(s) {
    var d = clear($("symbol-detail"));
    d.hidden = false;
    d.parentNode.classList.add("with-detail");
    d.appendChild(el("h2", { text: s.qualified_name + " (" + s.kind + ")" }));
    d.appendChild(el("div", { class: "muted", text: s.file + ":" + s.line + "–" + s.end_line + " · " + s.language }));
    if (s.signature) d.appendChild(el("pre", { text: s.signature }));
    if (s.doc) d.appendChild(el("p", { text: s.doc }));
    d.appendChild(el("div", { class: "bar" }, [
      el("button", { text: "Call graph", onclick: function () { $("graph-symbol").value = s.qualified_name; openTab("graph"); drawGraph(); } }),
      el("button", { text: "File dependencies", onclick: function () { $("deps-file").value = s.file; openTab("deps"); loadDeps(); } }),
      el("button", { text: "All in file", onclick: function () { openFile(s.file); } }),
    ]));
  }
  function openFile(file) {
    $("symbols-q").value = ""; $("symbols-kind").value = ""; $("symbols-file").value = file;
    symOffset = 0; openTab("symbols"); loadSymbols();
  }
  $("symbols-form").addEventListener("submit", function (ev) { ev.preventDefault(); symOffset = 0; loadSymbols(); });
  $("symbols-prev").addEventListener("click", function () { symOffset = Math.max(0, symOffset - symLimit); loadSymbols(); });
  $("symbols-next").addEventListener("click", function () { symOffset += symLimit; loadSymbols(); });

  // dependencies
  function loadDeps() {
    var file = $("deps-file").value.trim();
    return run(api("/api/deps" + q({ file: file })).then(function (r) {
      var out = clear($("deps-out"));
      out.appendChild(el("h2", { text: r.file ? "Imports of " + r.file : "Imports" }));
      var t = el("table", { class: "grid" }, [el("thead", null, [el("tr", null, [
        el("th", { text: "Module" }), el("th", { text: "Resolves to" }), el("th", { text: "Line" }), el("th", { text: "Names" })])])]);
      var tb = el("tbody");
      (r.imports || []).forEach(function (i) {
        var target = i.resolved
          ? el("a", { text: i.resolved, onclick: function () { $("deps-file").value = i.resolved; loadDeps(); } })
          : el("span", { class: "muted", text: i.external ? "external" : "unresolved" });
        tb.appendChild(el("tr", null, [el("td", { text: i.module }), el("td", null, [target]), el("td", { text: String(i.line) }), el("td", { text: (i.names || []).join(", ") })]));
      });
      t.appendChild(tb);
      out.appendChild(t);
      if (r.imported_by) {
        out.appendChild(el("h2", { text: "Imported by" }));
        var ul = el("ul");
        r.imported_by.forEach(function (f) {
          ul.appendChild(el("li", null, [el("a", { text: f, onclick: function () { $("deps-file").value = f; loadDeps(); } })]));
        });
        if (!r.imported_by.length) ul.appendChild(el("li", { class: "muted", text: "no file imports it" }));
        out.appendChild(ul);
      }
    }));
  }
  $("deps-form").addEventListener("submit", function (ev) { ev.preventDefault(); loadDeps(); });

  // call graph, drawn as SVG: callers to the left, callees to the right, one column per hop
  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function layers(center, edges) {
    var layer = {}; layer[center] = 0;
    var changed = true, guard = 0;
    while (changed && guard++ < 20) {
      changed = false;
      edges.forEach(function (e) {
        if (layer[e.from] !== undefined && layer[e.to] === undefined && layer[e.from] >= 0) { layer[e.to] = layer[e.from] + 1; changed = true; }
        if (layer[e.to] !== undefined && layer[e.from] === undefined && layer[e.to] <= 0) { layer[e.from] = layer[e.to] - 1; changed = true; }
      });
    }
    edges.forEach(function (e) {
      if (layer[e.from] === undefined) layer[e.from] = 0;
      if (layer[e.to] === undefined) layer[e.to] = 0;
    });
    return layer;
  }
  function drawGraph() {
    var name = $("graph-symbol").value.trim();
    if (!name) return;
    return run(api("/api/callgraph" + q({ symbol: name, depth: $("graph-depth").value })).then(function (g) {
      var out = clear($("graph-out"));
      var center = g.symbol;
      var edges = (g.edges || []).slice();
      (g.callers || []).forEach(function (c) { if (!edges.some(function (e) { return e.from === c.name && e.to === center; })) edges.push({ from: c.name, to: center }); });
      (g.callees || []).forEach(function (c) { if (!edges.some(function (e) { return e.from === center && e.to === c.name; })) edges.push({ from: center, to: c.name }); });
      var layer = layers(center, edges);
      var cols = {};
      Object.keys(layer).forEach(function (n) { (cols[layer[n]] = cols[layer[n]] || []).push(n); });
      var keys = Object.keys(cols).map(Number).sort(function (a, b) { return a - b; });
      var W = 200, H = 30, GX = 80, GY = 14, pad = 20;
      var rows = Math.max.apply(null, keys.map(function (k) { return cols[k].length; }));
      var width = pad * 2 + keys.length * W + (keys.length - 1) * GX;
      var height = pad * 2 + rows * H + (rows - 1) * GY;
      var pos = {};
      keys.forEach(function (k, ci) {
        var list = cols[k].sort();
        var offset = (rows - list.length) * (H + GY) / 2;
        list.forEach(function (n, ri) { pos[n] = { x: pad + ci * (W + GX), y: pad + offset + ri * (H + GY) }; });
      });
      var s = svg("svg", { width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img" });
      var defs = svg("defs");
      var marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
      marker.appendChild(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "currentColor" }));
      defs.appendChild(marker);
      s.appendChild(defs);
      edges.forEach(function (e) {
        var a = pos[e.from], b = pos[e.to];
        if (!a || !b) return;
        var x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
        if (x2 <= x1) { x1 = a.x + W / 2; x2 = b.x + W / 2; y1 = a.y + H; y2 = b.y; }
        var mx = (x1 + x2) / 2;
        var p = svg("path", { class: "edge", d: "M" + x1 + "," + y1 + " C" + mx + "," + y1 + " " + mx + "," + y2 + " " + x2 + "," + y2, "marker-end": "url(#arrow)" });
        if (e.file) { var t = svg("title"); t.textContent = e.file + ":" + e.line; p.appendChild(t); }
        s.appendChild(p);
      });
      Object.keys(pos).forEach(function (n) {
        var g2 = svg("g", { class: "node" + (n === center ? " center" : ""), transform: "translate(" + pos[n].x + "," + pos[n].y + ")" });
        g2.appendChild(svg("rect", { width: W, height: H, rx: 6 }));
        var label = svg("text", { x: 10, y: H / 2 + 4 });
        label.textContent = n.length > 26 ? n.slice(0, 25) + "…" : n;
        var tip = svg("title"); tip.textContent = n;
        g2.appendChild(tip);
        g2.appendChild(label);
        g2.addEventListener("click", function () { $("graph-symbol").value = n; drawGraph(); });
        s.appendChild(g2);
      });
      out.appendChild(s);
      if (!edges.length) out.appendChild(el("p", { class: "muted", text: "no calls found for " + center }));
    }));
  }
  $("graph-form").addEventListener("submit", function (ev) { ev.preventDefault(); drawGraph(); });

  // summary
  var summaryLoaded = false;
  function loadSummary() {
    if (summaryLoaded) return;
    run(api("/api/summary").then(function (r) {
      summaryLoaded = true;
      var out = clear($("summary-out"));
      out.appendChild(el("h2", { text: r.name + " — " + r.files + " files, " + r.lines + " lines" }));
      if (r.text) out.appendChild(el("pre", { text: r.text }));
      var t = el("table", { class: "grid" }, [el("thead", null, [el("tr", null, [el("th", { text: "Language" }), el("th", { text: "Files" }), el("th", { text: "Lines" })])])]);
      var tb = el("tbody");
      (r.languages || []).forEach(function (l) { tb.appendChild(el("tr", null, [el("td", { text: l.language }), el("td", { text: String(l.files) }), el("td", { text: String(l.lines) })])); });
      t.appendChild(tb);
      out.appendChild(t);
      if ((r.key_symbols || []).length) {
        out.appendChild(el("h2", { text: "Key symbols" }));
        var ul = el("ul");
        r.key_symbols.forEach(function (s) { ul.appendChild(el("li", null, [el("a", { text: s.qualified_name + " (" + s.kind + ")", onclick: function () { showSymbol(s); openTab("symbols"); } }), " ", el("span", { class: "muted", text: where(s) })])); });
        out.appendChild(ul);
      }
    }));
  }

  // ask
  $("ask-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var question = $("ask-q").value.trim();
    if (!question) return;
    run(api("/api/ask", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ question: question }) }).then(function (r) {
      var out = clear($("ask-out"));
      out.appendChild(el("pre", { text: r.answer }));
      out.appendChild(el("h2", { text: "Sources" }));
      var ul = el("ul");
      (r.sources || []).forEach(function (s) { ul.appendChild(el("li", null, [el("a", { text: where(s), onclick: function () { openFile(s.file); } })])); });
      out.appendChild(ul);
    }));
  });

  health();
  loadSymbols();
  // Deep links: #symbols, #graph=main, #deps=src/app.py, #search=parse%20config
  var hash = location.hash.slice(1).split("=");
  var start = hash[0], arg = hash.length > 1 ? decodeURIComponent(hash.slice(1).join("=")) : "";
  if (document.getElementById("tab-" + start)) {
    openTab(start);
    if (arg && start === "graph") { $("graph-symbol").value = arg; drawGraph(); }
    if (arg && start === "deps") { $("deps-file").value = arg; loadDeps(); }
    if (arg && start === "search") { $("search-q").value = arg; $("search-form").requestSubmit(); }
  }
})();
`;
