; Security facts for Go, read by src/analysis/facts_go.ts: calls, imports, keyed
; composite-literal fields and field assignments (the `assign` facts), comments.

(call_expression) @fact.call
(import_spec) @fact.import
(keyed_element) @fact.assign
(assignment_statement left: (expression_list (selector_expression))) @fact.assign
(comment) @fact.comment
