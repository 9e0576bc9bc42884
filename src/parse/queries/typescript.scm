; TypeScript (and TSX) definitions: JavaScript's, plus interfaces, type aliases, enums,
; namespaces, overload and ambient signatures, abstract members. Interface members that
; are functions become methods of the interface.

(function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(function_signature
  name: (identifier) @name) @definition.function

(class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(interface_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

(internal_module
  name: (_) @name
  body: (_) @body) @definition.namespace

(module
  name: (_) @name
  body: (_) @body) @definition.module

(method_definition
  name: (_) @name
  body: (_) @body) @definition.method

(method_signature
  name: (_) @name) @definition.method

(construct_signature
  "new" @name) @definition.method

(abstract_method_signature
  name: (_) @name) @definition.method

(public_field_definition
  name: (_) @name
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
  name: (type_identifier) @name
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
