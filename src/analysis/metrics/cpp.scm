; inherits: c
; Metrics captures for C++: C's (c.scm) plus methods returning references, classes,
; range loops, catch clauses and C++'s operator spellings; capture names are described
; in src/analysis/metrics.ts.

; section: functions
; inherited
(function_definition
  declarator: (reference_declarator
    (function_declarator declarator: (_) @function.name))) @function
(class_specifier name: (_) @class.name body: (_)) @class
(struct_specifier name: (_) @class.name body: (_)) @class

; section: decisions
; inherited
(for_range_loop) @decision
(catch_clause) @decision

; section: halstead.logical
(binary_expression operator: ["&&" "||" "and" "or"]) @halstead.logical

; section: halstead.compare
(binary_expression operator: ["==" "!=" "<" "<=" ">" ">=" "<=>"]) @halstead.compare
