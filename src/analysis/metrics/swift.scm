; Metrics captures for Swift; capture names are described in src/analysis/metrics.ts.

(function_declaration name: (simple_identifier) @function.name) @function
(class_declaration name: (type_identifier) @class.name) @class

(if_statement) @decision
(guard_statement) @decision
(for_statement) @decision
(while_statement) @decision
(repeat_while_statement) @decision
(switch_entry) @decision
(catch_block) @decision
(ternary_expression) @decision

(conjunction_expression) @halstead.logical
(disjunction_expression) @halstead.logical
(nil_coalescing_expression) @halstead.logical
(additive_expression) @halstead.binary
(multiplicative_expression) @halstead.binary
(comparison_expression) @halstead.compare
(equality_expression) @halstead.compare
(prefix_expression) @halstead.unary
(postfix_expression) @halstead.unary
(assignment) @halstead.assign

(comment) @comment
(multiline_comment) @comment
