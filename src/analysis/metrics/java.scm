; Metrics captures for Java; capture names are described in src/analysis/metrics.ts.

(method_declaration name: (identifier) @function.name) @function
(constructor_declaration name: (identifier) @function.name) @function
(class_declaration name: (identifier) @class.name) @class
(interface_declaration name: (identifier) @class.name) @class
(enum_declaration name: (identifier) @class.name) @class
(record_declaration name: (identifier) @class.name) @class

(if_statement) @decision
(for_statement) @decision
(enhanced_for_statement) @decision
(while_statement) @decision
(do_statement) @decision
(catch_clause) @decision
(ternary_expression) @decision
((switch_label) @decision (#not-match? @decision "^default"))

(binary_expression operator: ["&&" "||"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "%" "<<" ">>" ">>>" "&" "|" "^"]) @halstead.binary
(binary_expression operator: ["==" "!=" "<" "<=" ">" ">="]) @halstead.compare
(unary_expression) @halstead.unary
(update_expression) @halstead.unary
(assignment_expression) @halstead.assign

(line_comment) @comment
(block_comment) @comment
