; Security facts for JavaScript and TSX, read by src/analysis/facts_js.ts: calls and
; `new`, imports (ES and `require`), property assignments, object keys and JSX
; attributes (the `assign` facts), comments (for `nosec`).

; section: facts
(call_expression) @fact.call
(new_expression) @fact.call
(import_statement) @fact.import
((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string)))
  @fact.import
  (#eq? @_require "require"))
(assignment_expression left: (member_expression)) @fact.assign
(assignment_expression left: (subscript_expression index: (string))) @fact.assign
(pair) @fact.assign
; section: jsx
(jsx_attribute) @fact.assign
; section: comments
(comment) @fact.comment
