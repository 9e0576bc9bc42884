; Metrics captures for C#; capture names are described in src/analysis/metrics.ts.

(method_declaration name: (identifier) @function.name) @function
(constructor_declaration name: (identifier) @function.name) @function
(local_function_statement name: (identifier) @function.name) @function
(class_declaration name: (identifier) @class.name) @class
(struct_declaration name: (identifier) @class.name) @class
(interface_declaration name: (identifier) @class.name) @class
(record_declaration name: (identifier) @class.name) @class

(if_statement) @decision
(for_statement) @decision
(for_each_statement) @decision
(while_statement) @decision
(do_statement) @decision
(catch_clause) @decision
(conditional_expression) @decision
(case_switch_label) @decision
(case_pattern_switch_label) @decision
(switch_expression_arm) @decision

(binary_expression operator: ["&&" "||" "??"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "%" "<<" ">>" "&" "|" "^"]) @halstead.binary
(binary_expression operator: ["==" "!=" "<" "<=" ">" ">="]) @halstead.compare
(prefix_unary_expression) @halstead.unary
(postfix_unary_expression) @halstead.unary
(assignment_expression) @halstead.assign

(comment) @comment
