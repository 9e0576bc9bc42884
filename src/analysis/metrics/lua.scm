; Metrics captures for Lua; capture names are described in src/analysis/metrics.ts.

(function_definition_statement name: (_) @function.name) @function
(local_function_definition_statement name: (_) @function.name) @function

(if_statement) @decision
(elseif_clause) @decision
(while_statement) @decision
(repeat_statement) @decision
(for_numeric_statement) @decision
(for_generic_statement) @decision

(binary_expression operator: ["and" "or"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "//" "%" "^" ".." "&" "|" "~" "<<" ">>"]) @halstead.binary
(binary_expression operator: ["==" "~=" "<" "<=" ">" ">="]) @halstead.compare
(unary_expression) @halstead.unary

(comment) @comment
