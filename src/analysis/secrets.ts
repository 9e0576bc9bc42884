/**
 * Secrets in any text file: private keys, cloud keys, tokens. Patterns are data; each
 * has an id of its own (`S1xx`). A match is reported on the line where it starts; the
 * code shown is redacted.
 *
 * @module
 */

import type { Level } from "./rules/rule.ts";
import type { SecurityIssue } from "./security.ts";

/** One secret pattern. */
export interface SecretPattern {
  id: string;
  name: string;
  pattern: RegExp;
  severity: Level;
  confidence: Level;
  message: string;
}

/** The secret patterns, most specific first. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    id: "S101",
    name: "private_key",
    pattern: /-----BEGIN (?:RSA |DSA |EC |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/g,
    severity: "HIGH",
    confidence: "HIGH",
    message: "Private key in the source: move it to a secret store and rotate it.",
  },
  {
    id: "S102",
    name: "aws_access_key_id",
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
    severity: "HIGH",
    confidence: "HIGH",
    message:
      "AWS access key id in the source: rotate it and load credentials from the environment.",
  },
  {
    id: "S103",
    name: "aws_secret_access_key",
    pattern:
      /aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    severity: "HIGH",
    confidence: "HIGH",
    message: "AWS secret access key in the source: rotate it and load it from the environment.",
  },
  {
    id: "S104",
    name: "github_token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{82})\b/g,
    severity: "HIGH",
    confidence: "HIGH",
    message: "GitHub token in the source: revoke it and load it from the environment.",
  },
  {
    id: "S105",
    name: "slack_token",
    pattern: /\bxox[baprs]-[0-9A-Za-z-]{10,72}\b/g,
    severity: "HIGH",
    confidence: "HIGH",
    message: "Slack token in the source: revoke it and load it from the environment.",
  },
  {
    id: "S106",
    name: "slack_webhook",
    pattern: /https:\/\/hooks\.slack\.com\/services\/T[0-9A-Z]+\/B[0-9A-Z]+\/[0-9A-Za-z]{20,}/g,
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Slack webhook URL in the source: anyone holding it can post; keep it secret.",
  },
  {
    id: "S107",
    name: "google_api_key",
    pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g,
    severity: "HIGH",
    confidence: "MEDIUM",
    message: "Google API key in the source: restrict or rotate it and load it from configuration.",
  },
  {
    id: "S108",
    name: "stripe_secret_key",
    pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{24,99}\b/g,
    severity: "HIGH",
    confidence: "HIGH",
    message: "Stripe live secret key in the source: roll it and load it from the environment.",
  },
  {
    id: "S109",
    name: "openai_api_key",
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}\b/g,
    severity: "HIGH",
    confidence: "HIGH",
    message: "OpenAI API key in the source: revoke it and load it from the environment.",
  },
  {
    id: "S110",
    name: "npm_token",
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    severity: "HIGH",
    confidence: "HIGH",
    message: "npm token in the source: revoke it and load it from the environment.",
  },
  {
    id: "S111",
    name: "json_web_token",
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g,
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "JSON Web Token in the source: it may grant access until it expires.",
  },
  {
    id: "S112",
    name: "credentials_in_url",
    pattern:
      /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`]{1,64}:[^\s:/@'"`$<>{}]{3,128}@[A-Za-z0-9.-]+/g,
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "Password in a URL: move the credentials out of the source.",
  },
];

/** Placeholders that look like credentials in URLs but are none. */
const URL_PLACEHOLDER =
  /:(?:password|passwd|pass|pwd|secret|x+|\*+|<[^>]*>|\$\{?\w+\}?|%s|\{\w*\})@/i;

/**
 * Secrets in a text.
 *
 * @example
 * ```ts
 * scanSecrets("config.env", "KEY=AKIAIOSFODNN7EXAMPLE\n")[0].test_id; // "S102"
 * ```
 */
export function scanSecrets(file: string, text: string): SecurityIssue[] {
  const out: SecurityIssue[] = [];
  let lineStarts: number[] | null = null;
  for (const p of SECRET_PATTERNS) {
    p.pattern.lastIndex = 0;
    for (let m = p.pattern.exec(text); m; m = p.pattern.exec(text)) {
      if (p.id === "S112" && URL_PLACEHOLDER.test(m[0])) continue;
      lineStarts ??= starts(text);
      const line = lineAt(lineStarts, m.index);
      if (out.some((o) => o.line === line && o.test_id === p.id)) continue;
      const lineText = text.slice(lineStarts[line - 1], lineStarts[line] ?? text.length)
        .replace(/\r?\n$/, "");
      out.push({
        test_id: p.id,
        test_name: p.name,
        severity: p.severity,
        confidence: p.confidence,
        file,
        line,
        code: redact(lineText, m[0]),
        message: p.message,
        cwe: 798,
      });
    }
  }
  return out;
}

function starts(text: string): number[] {
  const s = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) s.push(i + 1);
  return s;
}

function lineAt(lineStarts: number[], index: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Keeps a secret's first four characters: enough to find it, not to use it. */
function redact(line: string, secret: string): string {
  if (secret.startsWith("-----BEGIN")) return line.trimEnd();
  const shown = secret.slice(0, 4);
  return line.replace(secret, `${shown}${"*".repeat(Math.min(16, secret.length - 4))}`).trimEnd();
}
