; Metrics captures for Bash; capture names are described in src/analysis/metrics.ts.

(function_definition name: (word) @function.name) @function

(if_statement) @decision
(elif_clause) @decision
(while_statement) @decision
(for_statement) @decision
(c_style_for_statement) @decision
(case_item) @decision

(list) @halstead.logical
(binary_expression) @halstead.binary
(unary_expression) @halstead.unary

(comment) @comment
