// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The summary view (`#/summary`) and the Ask view (`#/ask?q=…`): the repository summary and
 * grounded answers, both rendered from Markdown, with `file:line` citations as links.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { AskAnswer, SummaryAnswer } from "./rest.js" */
import { el, link, note } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { api, get } from "./rest.js";
import { fileHref, href, symbolHref } from "./route.js";

/**
 * Renders the summary view into `out`.
 * @param {HTMLElement} out
 */
export async function summaryView(out) {
  const r = /** @type {SummaryAnswer} */ (await get("/api/summary"));
  const body = el("div", { id: "summary" });
  const keys = r.key_symbols || [];
  if (r.text) {
    const text = renderMarkdown(r.text);
    // A key symbol named in the text as code opens its symbol view.
    const byName = new Map(keys.map((s) => [s.qualified_name, s]));
    text.querySelectorAll("code").forEach((c) => {
      const s = byName.get(c.textContent || "");
      if (!s || c.closest("pre, a")) return;
      const a = link(symbolHref(s.qualified_name, s.file), "", "name");
      c.replaceWith(a);
      a.appendChild(c);
    });
    body.appendChild(text);
  } else {
    body.appendChild(
      el("h2", { text: r.name + " — " + r.files + " files, " + r.lines + " lines" }),
    );
  }
  const langs = r.languages || [];
  if (langs.length) {
    body.appendChild(el("h3", { text: "Languages" }));
    body.appendChild(el("table", { class: "grid" }, [
      el("thead", null, [
        el("tr", null, ["Language", "Files", "Lines"].map((h) => el("th", { text: h }))),
      ]),
      el(
        "tbody",
        null,
        langs.map((l) =>
          el("tr", null, [
            el("td", { text: l.language }),
            el("td", { text: String(l.files) }),
            el("td", { text: String(l.lines) }),
          ])
        ),
      ),
    ]));
  }
  if (keys.length && !r.text) {
    body.appendChild(el("h3", { text: "Key symbols" }));
    body.appendChild(el(
      "ul",
      null,
      keys.map((s) =>
        el("li", null, [
          link(symbolHref(s.qualified_name, s.file), s.qualified_name),
          " ",
          link(fileHref(s.file, s.line), s.file + ":" + s.line, "where"),
        ])
      ),
    ));
  }
  out.appendChild(body);
}

/**
 * Renders the Ask view into `out`: the question box and, for `?q=`, the answer.
 * @param {HTMLElement} out
 * @param {Route} route
 */
export async function askView(out, route) {
  const question = route.params.get("q") || "";
  const box = /** @type {HTMLTextAreaElement} */ (el("textarea", {
    id: "ask-q",
    rows: 3,
    placeholder: "Ask about this code: where is the config parsed?",
  }));
  box.value = question;
  const form = el("form", { id: "ask-form" }, [
    box,
    el("div", { class: "bar" }, [el("button", { text: "Ask" })]),
  ]);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const q = box.value.trim();
    if (q) location.hash = href("ask", "", { q });
  });
  box.addEventListener("keydown", (ev) => {
    const e = /** @type {KeyboardEvent} */ (ev);
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.dispatchEvent(new Event("submit"));
  });
  out.appendChild(form);
  const answerBox = el("div", { id: "ask-out" });
  out.appendChild(answerBox);
  if (!question) return;
  answerBox.appendChild(note("Thinking…", "loading"));
  const r = /** @type {AskAnswer} */ (await api("/api/ask", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ question }),
  }));
  answerBox.replaceChildren();
  if (r.warning) answerBox.appendChild(note(r.warning, "muted"));
  answerBox.appendChild(renderMarkdown(r.answer));
  const sources = r.sources || [];
  if (sources.length) {
    answerBox.appendChild(el("h3", { text: "Sources" }));
    answerBox.appendChild(el(
      "ol",
      { class: "sources" },
      sources.map((s) =>
        el("li", null, [
          link(fileHref(s.file, s.line), s.file + ":" + s.line + "–" + s.end_line),
          s.symbol ? el("span", { class: "muted", text: " " + s.symbol }) : "",
        ])
      ),
    ));
  }
}
