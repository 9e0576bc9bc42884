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

(protocol_function_declaration
  name: (_) @name) @definition.method

(init_declaration
  name: "init" @name
  body: (_)? @body) @definition.constructor

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)
