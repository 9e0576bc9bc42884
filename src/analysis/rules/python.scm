; Security facts for Python, read by src/analysis/security.ts. Each capture is a fact
; the rule table (rules/table.ts) can test: calls, imports, string literals, asserts,
; exception handlers and function definitions; comments carry `# nosec`.

(call) @fact.call
(import_statement) @fact.import
(import_from_statement) @fact.import
; A string statement (a docstring) is no fact; the parts of an implicit concatenation
; are one literal.
((concatenated_string) @fact.string
  (#not-parent? @fact.string expression_statement))
((string) @fact.string
  (#not-parent? @fact.string concatenated_string expression_statement))
(assert_statement) @fact.assert
(except_clause) @fact.except
(function_definition) @fact.function
(comment) @fact.comment
; Keyword argument names, so that calls need not be read for them.
(keyword_argument name: (identifier) @fact.keyword)
