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
