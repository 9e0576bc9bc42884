; Names for validate_code's unresolved-symbol check (src/analysis/unresolved.ts); see
; python.scm for the capture names.

; section: bindings
(function_declaration name: (identifier) @bind)
(generator_function_declaration name: (identifier) @bind)
(function_expression name: (identifier) @bind)
(class_declaration name: (_) @bind)
(class name: (_) @bind)
(variable_declarator name: (_) @bind.all)
(formal_parameters) @bind.all
(arrow_function parameter: (identifier) @bind)
(catch_clause parameter: (_) @bind.all)
(for_in_statement left: (_) @bind.all)
(labeled_statement label: (_) @bind)

; section: calls
(call_expression function: (identifier) @call)
(new_expression constructor: (identifier) @call)
(call_expression function: (member_expression) @member)

; section: imports
(import_statement) @import
((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string)))
  @import
  (#eq? @_require "require"))
