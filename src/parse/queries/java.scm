; Java definitions. Constants are `static final` fields (Java has no module level).
; Members of anonymous classes are not indexed (they cannot be named from outside).

(object_creation_expression
  (class_body) @local)

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(record_declaration
  name: (identifier) @name
  body: (_) @body) @definition.class

(interface_declaration
  name: (identifier) @name
  body: (_) @body) @definition.interface

(annotation_type_declaration
  name: (identifier) @name
  body: (_) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

(method_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.method

(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name
  body: (_) @body) @definition.constructor

(compact_constructor_declaration
  name: (identifier) @name
  body: (_) @body) @definition.constructor

(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts). An import's module is
; the whole path (`a.b.C`, `a.b.C.m` for a static import); the resolver splits it.

(package_declaration [(identifier) (scoped_identifier)] @package)
(import_declaration "static"? @import.kind [(identifier) (scoped_identifier)] @import.module (asterisk)? @import.wildcard)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(package_declaration) @import.statement
(import_declaration) @import.statement

(import_declaration (scoped_identifier name: (identifier) @reference.import) .)
(scoped_identifier scope: (identifier) @reference.ignore)
(scoped_identifier name: (identifier) @reference.ignore)

[
  (method_declaration)
  (constructor_declaration)
  (lambda_expression)
] @local.scope

(formal_parameter
  type: [
    (type_identifier) @local.type
    (generic_type (type_identifier) @local.type)
    (scoped_type_identifier (type_identifier) @local.type .)
  ]
  name: (identifier) @local.definition)
(formal_parameter name: (identifier) @local.definition)
(spread_parameter (variable_declarator name: (identifier) @local.definition))
(lambda_expression parameters: (identifier) @local.definition)
(inferred_parameters (identifier) @local.definition)
(local_variable_declaration
  type: [
    (type_identifier) @local.type
    (generic_type (type_identifier) @local.type)
  ]
  declarator: (variable_declarator name: (identifier) @local.definition)
  (#not-eq? @local.type "var"))
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @local.definition
    value: (object_creation_expression type: [
      (type_identifier) @local.type
      (generic_type (type_identifier) @local.type)
    ])))
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @local.definition
    value: [(method_invocation) (field_access) (identifier)] @local.value))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.definition))
(enhanced_for_statement
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @local.type
  name: (identifier) @local.definition
  (#not-eq? @local.type "var"))
(enhanced_for_statement name: (identifier) @local.definition value: (_) @local.element)
(enhanced_for_statement name: (identifier) @local.definition)

; Declared types, read by the graph's receiver chains: fields, method return types.
(field_declaration
  type: [(type_identifier) (generic_type) (scoped_type_identifier) (array_type)] @declared.type
  declarator: (variable_declarator name: (identifier) @declared.name))
(method_declaration
  type: [(type_identifier) (generic_type) (scoped_type_identifier) (array_type)] @declared.type
  name: (identifier) @declared.name)
(catch_formal_parameter name: (identifier) @local.definition)
(resource name: (identifier) @local.definition)

(method_invocation object: (this) @reference.receiver.self name: (identifier) @reference.call)
(method_invocation object: (super) @reference.receiver.self name: (identifier) @reference.call)
(method_invocation
  object: (object_creation_expression type: (type_identifier) @reference.receiver.type)
  name: (identifier) @reference.call)
(method_invocation object: (_) @reference.receiver name: (identifier) @reference.call)
(method_invocation name: (identifier) @reference.call)
(method_reference (_) @reference.receiver . (identifier) @reference.call)
(object_creation_expression type: (type_identifier) @reference.call)
(object_creation_expression type: (generic_type (type_identifier) @reference.call))
(superclass (type_identifier) @reference.inherit)
(superclass (generic_type (type_identifier) @reference.inherit))
(super_interfaces (type_list (type_identifier) @reference.inherit))
(super_interfaces (type_list (generic_type (type_identifier) @reference.inherit)))
(extends_interfaces (type_list (type_identifier) @reference.inherit))
(extends_interfaces (type_list (generic_type (type_identifier) @reference.inherit)))
(assignment_expression left: (identifier) @reference.write)
(assignment_expression
  left: (field_access object: (this) @reference.receiver.self field: (identifier) @reference.write))
(assignment_expression
  left: (field_access object: (_) @reference.receiver field: (identifier) @reference.write))
(update_expression (identifier) @reference.write)
(field_access object: (this) @reference.receiver.self field: (identifier) @reference.read)
(field_access object: (_) @reference.receiver field: (identifier) @reference.read)
(scoped_type_identifier (_) @reference.receiver . (type_identifier) @reference.type .)
((type_identifier) @reference.ignore (#eq? @reference.ignore "var"))
(type_identifier) @reference.type
(identifier) @reference.read
