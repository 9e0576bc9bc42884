/**
 * The security rule table. Each row names the fact it applies to (`call`, `import`,
 * `string`, `assert`, `except`, `function`, `assign`), the conditions that must all hold
 * and what to report; `cases` refine severity, confidence or message (the first case
 * whose conditions hold wins; a case with `none` reports nothing). Python rows carry
 * bandit's ids, names, levels and messages; JavaScript/TypeScript and Go rows have ids
 * of their own (Go's follow gosec).
 *
 * Rows of one `group` report at most once per fact, the first matching row winning
 * (bandit's blacklist is one test).
 *
 * @module
 */

import { GO_RULES } from "./go.ts";
import { JS_RULES } from "./javascript.ts";
import { PYTHON_RULES } from "./python.ts";
import type { Rule } from "./rule.ts";

export type { Case, Condition, Level, LineRef, LiteralValue, Rule } from "./rule.ts";

/** Every rule, in table order. */
export const RULES: readonly Rule[] = [...PYTHON_RULES, ...JS_RULES, ...GO_RULES];
