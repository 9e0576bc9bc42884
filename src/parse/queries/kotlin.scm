; Kotlin definitions. `object` declarations are classes; members of a companion
; object belong to the enclosing class. Constants are top-level `const val`.

; Members of an anonymous object (`object : Runnable { … }`) belong to no outline: they
; cannot be named from outside (as Java's anonymous classes).
(object_literal
  (class_body) @local)

(class_declaration
  (type_identifier) @name
  (enum_class_body) @body) @definition.enum

(class_declaration
  "interface"
  (type_identifier) @name
  (class_body)? @body) @definition.interface

(class_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.class

(object_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.class

(function_declaration
  (simple_identifier) @name
  (function_body)? @body) @definition.function

(secondary_constructor
  "constructor" @name) @definition.constructor

(type_alias
  (type_identifier) @name) @definition.type

(source_file
  (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration (simple_identifier) @name)) @definition.constant
  (#eq? @_const "const"))

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts). An import's module is
; the whole path (`a.b.C`); the resolver splits it.

(package_header (identifier) @package)
(import_header (identifier) @import.module (import_alias (type_identifier) @import.alias)?)
(import_header (identifier) @import.module (wildcard_import) @import.wildcard)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(package_header) @import.statement
(import_header) @import.statement

(import_header (identifier (simple_identifier) @reference.import .))
(import_header (identifier (simple_identifier) @reference.ignore))
(package_header (identifier (simple_identifier) @reference.ignore))
(import_alias (type_identifier) @reference.ignore)

[
  (function_declaration)
  (lambda_literal)
  (anonymous_function)
  (secondary_constructor)
] @local.scope

(parameter (simple_identifier) @local.definition (user_type (type_identifier) @local.type))
(parameter (simple_identifier) @local.definition)
(lambda_parameters (variable_declaration (simple_identifier) @local.definition))
(statements
  (property_declaration
    (variable_declaration (simple_identifier) @local.definition (user_type (type_identifier) @local.type))))
(statements
  (property_declaration
    (variable_declaration (simple_identifier) @local.definition)
    (call_expression (simple_identifier) @local.type)
    (#match? @local.type "^[A-Z]")))
(statements (property_declaration (variable_declaration (simple_identifier) @local.definition)))
(for_statement (variable_declaration (simple_identifier) @local.definition))
(catch_block (simple_identifier) @local.definition)

(call_expression
  (navigation_expression
    (this_expression) @reference.receiver.self
    (navigation_suffix (simple_identifier) @reference.call)))
(call_expression
  (navigation_expression (_) @reference.receiver (navigation_suffix (simple_identifier) @reference.call)))
(call_expression (simple_identifier) @reference.call)
(delegation_specifier (constructor_invocation (user_type (type_identifier) @reference.inherit)))
(delegation_specifier (user_type (type_identifier) @reference.inherit))
(assignment (directly_assignable_expression (simple_identifier) @reference.write))
(navigation_expression
  (this_expression) @reference.receiver.self
  (navigation_suffix (simple_identifier) @reference.read))
(navigation_expression (_) @reference.receiver (navigation_suffix (simple_identifier) @reference.read))
(type_identifier) @reference.type
(simple_identifier) @reference.read
