; Metrics captures for JavaScript (and the base of TypeScript's); capture names are
; described in src/analysis/metrics.ts.

; section: functions
; Named functions; an anonymous callback counts toward the function around it.
(function_declaration name: (_) @function.name) @function
(generator_function_declaration name: (_) @function.name) @function
(method_definition name: (_) @function.name) @function
(variable_declarator
  name: (identifier) @function.name
  value: [(arrow_function) (function_expression) (generator_function)] @function)
(assignment_expression
  left: (member_expression property: (_) @function.name)
  right: [(arrow_function) (function_expression)] @function)
(pair key: (_) @function.name value: [(arrow_function) (function_expression)] @function)
; A function expression named only by itself: an argument (`wrap(async function dispatch()
; {…})`), an operand (`ok && function adapter() {…}`), returned or in parentheses (an IIFE).
(arguments (function_expression name: (identifier) @function.name) @function)
(binary_expression right: (function_expression name: (identifier) @function.name) @function)
(return_statement (function_expression name: (identifier) @function.name) @function)
(parenthesized_expression (function_expression name: (identifier) @function.name) @function)
(class_declaration name: (_) @class.name) @class
(class name: (_) @class.name) @class

; section: decisions
(if_statement) @decision
(for_statement) @decision
(for_in_statement) @decision
(while_statement) @decision
(do_statement) @decision
(switch_case) @decision
(catch_clause) @decision
(ternary_expression) @decision

; section: halstead
(binary_expression operator: ["&&" "||" "??"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "%" "**" "<<" ">>" ">>>" "&" "|" "^" "in" "instanceof"])
  @halstead.binary
(binary_expression operator: ["==" "!=" "===" "!==" "<" ">" "<=" ">="]) @halstead.compare
(unary_expression) @halstead.unary
(update_expression) @halstead.unary
(augmented_assignment_expression) @halstead.assign

; section: comments
(comment) @comment
