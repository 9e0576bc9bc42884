; Metrics captures for C; capture names are described in src/analysis/metrics.ts.

; section: functions
(function_definition
  declarator: (function_declarator declarator: (_) @function.name)) @function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (_) @function.name))) @function

; section: decisions
(if_statement) @decision
(for_statement) @decision
(while_statement) @decision
(do_statement) @decision
(conditional_expression) @decision
((case_statement) @decision (#not-match? @decision "^default"))

; section: halstead.logical
(binary_expression operator: ["&&" "||"]) @halstead.logical
; section: halstead.arithmetic
(binary_expression
  operator: ["+" "-" "*" "/" "%" "<<" ">>" "&" "|" "^"]) @halstead.binary
; section: halstead.compare
(binary_expression operator: ["==" "!=" "<" "<=" ">" ">="]) @halstead.compare
; section: halstead.other
(unary_expression) @halstead.unary
(update_expression) @halstead.unary
(assignment_expression) @halstead.assign

; section: comments
(comment) @comment
