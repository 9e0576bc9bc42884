; Metrics captures for PHP; capture names are described in src/analysis/metrics.ts.

(function_definition name: (name) @function.name) @function
(method_declaration name: (name) @function.name) @function
(class_declaration name: (name) @class.name) @class
(interface_declaration name: (name) @class.name) @class
(trait_declaration name: (name) @class.name) @class

(if_statement) @decision
(else_if_clause) @decision
(for_statement) @decision
(foreach_statement) @decision
(while_statement) @decision
(do_statement) @decision
(catch_clause) @decision
(conditional_expression) @decision
(case_statement) @decision
(match_conditional_expression) @decision

(binary_expression operator: ["&&" "||" "and" "or" "xor" "??"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "%" "**" "." "<<" ">>" "&" "|" "^"]) @halstead.binary
(binary_expression
  operator: ["==" "!=" "===" "!==" "<>" "<" "<=" ">" ">=" "<=>"]) @halstead.compare
(unary_op_expression) @halstead.unary
(update_expression) @halstead.unary
(augmented_assignment_expression) @halstead.assign

(comment) @comment
