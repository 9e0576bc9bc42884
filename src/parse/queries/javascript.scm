; JavaScript definitions. Functions assigned to names (`const f = () => …`,
; `exports.f = function …`) are functions; methods are class members (object-literal
; methods are captured as methods of the enclosing definition). Constants: `const`
; declarations at the top level.

(function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(method_definition
  name: (_) @name
  body: (_) @body) @definition.method

(field_definition
  property: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @definition.method

(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
  ]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class body: (class_body) @body)) @definition.class

(class
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: (class body: (class_body) @body)) @definition.class

(assignment_expression
  left: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]
  right: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]
  ; `module.exports = function …` names the module, not a function.
  (#not-eq? @name "exports")) @definition.function

(program
  (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name) @definition.constant))

(program
  (export_statement
    (lexical_declaration
      kind: "const"
      (variable_declarator name: (identifier) @name) @definition.constant)))
