; Metrics captures for Kotlin; capture names are described in src/analysis/metrics.ts.
; This grammar has no field names: names are the first identifier child.

(function_declaration (simple_identifier) @function.name) @function
(class_declaration (type_identifier) @class.name) @class
(object_declaration (type_identifier) @class.name) @class

(if_expression) @decision
(for_statement) @decision
(while_statement) @decision
(do_while_statement) @decision
(when_entry (when_condition)) @decision
(catch_block) @decision

(conjunction_expression) @halstead.logical
(disjunction_expression) @halstead.logical
(elvis_expression) @halstead.logical
(additive_expression) @halstead.binary
(multiplicative_expression) @halstead.binary
(comparison_expression) @halstead.compare
(equality_expression) @halstead.compare
(prefix_expression) @halstead.unary
(postfix_expression) @halstead.unary
(assignment) @halstead.assign

(line_comment) @comment
(multiline_comment) @comment
