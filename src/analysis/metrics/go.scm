; Metrics captures for Go; capture names are described in src/analysis/metrics.ts.

(function_declaration name: (identifier) @function.name) @function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @function.parent
             (pointer_type (type_identifier) @function.parent)
             (generic_type type: (type_identifier) @function.parent)
             (pointer_type (generic_type type: (type_identifier) @function.parent))]))
  name: (field_identifier) @function.name) @function

(if_statement) @decision
(for_statement) @decision
(expression_case) @decision
(type_case) @decision
(communication_case) @decision

(binary_expression operator: ["&&" "||"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "%" "<<" ">>" "&" "|" "^" "&^"]) @halstead.binary
(binary_expression operator: ["==" "!=" "<" "<=" ">" ">="]) @halstead.compare
(unary_expression) @halstead.unary
(inc_statement) @halstead.unary
(dec_statement) @halstead.unary
(assignment_statement) @halstead.assign

(comment) @comment
