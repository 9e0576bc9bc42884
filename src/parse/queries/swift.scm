; Swift definitions. `class`, `struct`, `enum` and `extension` share one node type and
; differ by keyword; an extension is a scope that names its type. Protocols are
; interfaces. Constants: top-level `let`.

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @name)
  body: (_) @body) @scope

(class_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(protocol_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.interface

; No `@body` here: pairing `name:` and `body:` in one pattern takes the query compiler
; seconds on this grammar; the engine finds the body through its field.
(function_declaration
  name: (simple_identifier) @name) @definition.function

; The grammar also files the return type under `name:`; only the identifier names it.
(protocol_function_declaration
  name: (simple_identifier) @name) @definition.method

(init_declaration
  name: "init" @name
  body: (_)? @body) @definition.constructor

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts).

(import_declaration (identifier) @import.module)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(import_declaration) @import.statement
(import_declaration (identifier (simple_identifier) @reference.ignore))

[
  (function_declaration)
  (lambda_literal)
  (init_declaration)
] @local.scope

(parameter (simple_identifier) @local.definition (user_type (type_identifier) @local.type))
(parameter (simple_identifier) @local.definition)
(statements
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @local.definition)
    value: (call_expression (simple_identifier) @local.type)
    (#match? @local.type "^[A-Z]")))
(statements (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition)))
(lambda_parameter (simple_identifier) @local.definition)

(call_expression
  (navigation_expression
    target: (self_expression) @reference.receiver.self
    suffix: (navigation_suffix suffix: (simple_identifier) @reference.call)))
(call_expression
  (navigation_expression target: (_) @reference.receiver suffix: (navigation_suffix suffix: (simple_identifier) @reference.call)))
(call_expression (simple_identifier) @reference.call)
(inheritance_specifier inherits_from: (user_type (type_identifier) @reference.inherit))
(navigation_expression
  target: (self_expression) @reference.receiver.self
  suffix: (navigation_suffix suffix: (simple_identifier) @reference.read))
(navigation_expression target: (_) @reference.receiver suffix: (navigation_suffix suffix: (simple_identifier) @reference.read))
(type_identifier) @reference.type
(simple_identifier) @reference.read
