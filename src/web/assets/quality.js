// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The quality view (`#/quality?path=src/`): the files with the lowest maintainability, the
 * most complex functions, and security findings by severity, each linking to the code.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { Finding, QualityAnswer } from "./rest.js" */
import { el, link, note } from "./dom.js";
import { get } from "./rest.js";
import { fileHref, href, symbolHref } from "./route.js";

/** Severities, worst first. */
const SEVERITIES = ["HIGH", "MEDIUM", "LOW"];

/**
 * A table with a header row.
 * @param {string} id
 * @param {string[]} head
 * @param {(Node | string)[][]} rows
 * @returns {HTMLElement}
 */
function table(id, head, rows) {
  return el("table", { class: "grid", id }, [
    el("thead", null, [el("tr", null, head.map((h) => el("th", { text: h })))]),
    el("tbody", null, rows.map((r) => el("tr", null, r.map((c) => el("td", null, [c]))))),
  ]);
}

/**
 * A rank badge (A best, C worst).
 * @param {string} rank
 * @returns {HTMLElement}
 */
function rankBadge(rank) {
  return el("span", { class: "badge rank-" + rank, text: rank });
}

/**
 * Security findings grouped by severity.
 * @param {Finding[]} issues
 * @returns {HTMLElement}
 */
function findings(issues) {
  const box = el("div", { id: "findings" });
  if (!issues.length) {
    box.appendChild(note("No security findings.", "muted"));
    return box;
  }
  SEVERITIES.forEach((sev) => {
    const list = issues.filter((i) => i.severity === sev);
    if (!list.length) return;
    box.appendChild(el("h4", { class: "sev sev-" + sev, text: sev + " (" + list.length + ")" }));
    box.appendChild(el(
      "ul",
      { class: "findings" },
      list.map((i) =>
        el("li", null, [
          link(fileHref(i.file, i.line), i.file + ":" + i.line, "where"),
          el("span", { class: "badge", text: i.test_id }),
          el("span", { text: i.message }),
          el("span", { class: "muted", text: " confidence " + i.confidence.toLowerCase() }),
          i.code ? el("pre", { text: i.code.replace(/\n$/, "") }) : "",
        ])
      ),
    ));
  });
  return box;
}

/**
 * Renders the quality view into `out`.
 * @param {HTMLElement} out
 * @param {Route} route
 */
export async function qualityView(out, route) {
  const path = route.params.get("path") || "";
  const form = el("form", { class: "bar" }, [
    el("input", { id: "quality-path", value: path, placeholder: "file or folder (empty: all)" }),
    el("button", { text: "Analyze" }),
  ]);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = /** @type {HTMLInputElement} */ (form.querySelector("input")).value.trim();
    location.hash = href("quality", "", { path: v });
  });
  out.appendChild(form);
  const r = /** @type {QualityAnswer} */ (await get("/api/quality", { path: path || undefined }));
  out.appendChild(el("div", { class: "view-head" }, [
    el("h2", { text: "Quality of " + (r.path && r.path !== "." ? r.path : "the project") }),
    el("span", { class: "muted", text: "maintainability " + r.maintainability_index.toFixed(1) }),
    rankBadge(r.rank),
  ]));
  const worstFiles = r.files.slice().sort((a, b) =>
    a.maintainability_index - b.maintainability_index
  ).slice(0, 15);
  out.appendChild(el("div", { class: "columns" }, [
    el("section", null, [
      el("h3", { text: "Least maintainable files" }),
      table(
        "worst-files",
        ["File", "MI", "Rank", "Complexity", "SLOC"],
        worstFiles.map((f) => [
          link(fileHref(f.file), f.file),
          f.maintainability_index.toFixed(1),
          rankBadge(f.rank),
          String(f.cyclomatic_complexity),
          String(f.sloc),
        ]),
      ),
    ]),
    el("section", null, [
      el("h3", { text: "Most complex functions" }),
      r.worst_functions.length
        ? table(
          "worst-functions",
          ["Function", "Complexity", "Rank", "Where"],
          r.worst_functions.map((f) => [
            link(symbolHref(f.qualified_name, f.file), f.qualified_name),
            String(f.complexity),
            rankBadge(f.rank),
            link(fileHref(f.file, f.line), f.file + ":" + f.line),
          ]),
        )
        : note("No functions.", "muted"),
    ]),
  ]));
  const counts = r.issue_counts.by_severity;
  out.appendChild(el("h3", {
    text: "Security findings (" + r.issue_counts.total + ")" +
      (r.issue_counts.total
        ? ": " + SEVERITIES.map((s) => (counts[s] || 0) + " " + s.toLowerCase()).join(", ")
        : ""),
  }));
  out.appendChild(findings(r.bandit_issues));
}
