; Python definitions. Methods are functions inside a class body (the engine promotes
; them); `__init__` becomes a constructor. Constants: UPPER_CASE names assigned at
; module level.

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(function_definition
  name: (identifier) @name
  body: (block) @body) @definition.function

(assignment
  left: (identifier) @name
  right: (lambda body: (_) @body)) @definition.function

(module
  (expression_statement
    (assignment
      left: (identifier) @name)) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
