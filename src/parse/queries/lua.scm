; Lua definitions. `function M.f` is a function of table `M` (`M.f`); `function M:f`
; is a method; `M.f = function` counts as `function M.f`. Constants: global UPPER_CASE
; assignments at the top level.

(function_definition_statement
  name: (variable
    table: (identifier) @parent
    method: (identifier) @name)
  body: (_)? @body) @definition.method

(function_definition_statement
  name: (variable
    table: (identifier) @parent
    field: (identifier) @name)
  body: (_)? @body) @definition.function

(function_definition_statement
  name: (identifier) @name
  body: (_)? @body) @definition.function

(local_function_definition_statement
  name: (identifier) @name
  body: (_)? @body) @definition.function

(variable_assignment
  (variable_list
    (variable
      table: (identifier) @parent
      field: (identifier) @name))
  (expression_list
    value: (function_definition body: (_)? @body))) @definition.function

(variable_assignment
  (variable_list
    (variable name: (identifier) @name))
  (expression_list
    value: (function_definition body: (_)? @body))) @definition.function

(chunk
  (variable_assignment
    (variable_list
      (variable name: (identifier) @name))) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

; ---------------------------------------------------------------------------------------
; Imports (`require`), local scopes and references (read by ../references.ts).

(call
  function: (variable name: (identifier) @_require)
  arguments: (argument_list (expression_list . (string) @import.module))
  (#eq? @_require "require"))
(call
  function: (variable name: (identifier) @_require)
  arguments: (argument_list . (string) @import.module)
  (#eq? @_require "require"))

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
((call function: (variable name: (identifier) @_require)) @import.statement
  (#eq? @_require "require"))

[
  (function_definition_statement)
  (local_function_definition_statement)
  (function_definition)
] @local.scope

(parameter_list name: (identifier) @local.definition)
(local_variable_declaration (variable_list (variable name: (identifier) @local.definition)))
(for_numeric_statement name: (identifier) @local.definition)
(for_generic_statement left: (variable_list name: (identifier) @local.definition))
(local_function_definition_statement name: (identifier) @local.definition)

(call function: (variable name: (identifier) @reference.call))
(call function: (variable table: (_) @reference.receiver field: (identifier) @reference.call))
(call function: (variable table: (_) @reference.receiver method: (identifier) @reference.call))
(variable table: (_) @reference.receiver field: (identifier) @reference.read)
(identifier) @reference.read
