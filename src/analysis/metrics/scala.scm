; Metrics captures for Scala; capture names are described in src/analysis/metrics.ts.
; Scala's operators are identifiers: `@operator` marks them.

(function_definition name: (identifier) @function.name) @function
(class_definition name: (identifier) @class.name) @class
(object_definition name: (identifier) @class.name) @class
(trait_definition name: (identifier) @class.name) @class

(if_expression) @decision
(case_clause) @decision
(catch_clause) @decision

((infix_expression operator: (operator_identifier) @operator) @halstead.logical
  (#any-of? @operator "&&" "||"))
((infix_expression operator: (operator_identifier) @operator) @halstead.binary
  (#not-any-of? @operator "&&" "||"))
(prefix_expression) @halstead.unary

(comment) @comment
