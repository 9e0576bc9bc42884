; PHP definitions. Namespaces are file-level statements in most code and do not
; qualify names; constants are `const` at the top level or in a class.

; Members of an anonymous class (`new class { … }`) belong to no outline: they cannot be
; named from outside (as Java's anonymous classes).
(object_creation_expression
  (declaration_list) @local)

(class_declaration
  name: (name) @name
  body: (_) @body) @definition.class

(interface_declaration
  name: (name) @name
  body: (_) @body) @definition.interface

(trait_declaration
  name: (name) @name
  body: (_) @body) @definition.trait

(enum_declaration
  name: (name) @name
  body: (_) @body) @definition.enum

(function_definition
  name: (name) @name
  body: (_) @body) @definition.function

(method_declaration
  name: (name) @name
  body: (_)? @body) @definition.method

(namespace_definition
  name: (_) @name) @definition.namespace

(program
  (const_declaration
    (const_element (name) @name)) @definition.constant)

(declaration_list
  (const_declaration
    (const_element (name) @name)) @definition.constant)

; ---------------------------------------------------------------------------------------
; Imports (`use`, `require`/`include`), local scopes and references (read by
; ../references.ts). A `use` clause's module is the whole class name (`App\Models\User`);
; a group `use A\{B, C}` has the prefix as module and the members as names.

(namespace_definition name: (namespace_name) @package)
(namespace_use_declaration
  (namespace_use_clause
    [(qualified_name) (name)] @import.module
    (namespace_aliasing_clause (name) @import.alias)?))
(namespace_use_declaration
  (namespace_name) @import.module
  (namespace_use_group
    (namespace_use_group_clause
      (namespace_name) @import.name
      (namespace_aliasing_clause (name) @import.alias)?)))
([(require_expression) (require_once_expression) (include_expression) (include_once_expression)]
  (string (string_content) @import.module))
([(require_expression) (require_once_expression) (include_expression) (include_once_expression)]
  (binary_expression right: (string (string_content) @import.module)))

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(namespace_definition !body) @import.statement
(namespace_use_declaration) @import.statement
(expression_statement
  [(require_expression) (require_once_expression) (include_expression) (include_once_expression)])
  @import.statement

[
  (function_definition)
  (method_declaration)
  (anonymous_function_creation_expression)
  (arrow_function)
] @local.scope

(simple_parameter
  type: [(named_type [(name) (qualified_name)] @local.type) (optional_type (named_type [(name) (qualified_name)] @local.type))]
  name: (variable_name) @local.definition)
(property_promotion_parameter
  type: [(named_type [(name) (qualified_name)] @local.type) (optional_type (named_type [(name) (qualified_name)] @local.type))]
  name: (variable_name) @local.definition)
(assignment_expression
  left: (variable_name) @local.definition
  right: (object_creation_expression [(name) (qualified_name)] @local.type))
(simple_parameter name: (variable_name) @local.definition)
(assignment_expression left: (variable_name) @local.definition)

(namespace_use_clause (qualified_name (name) @reference.import .))
(namespace_use_clause (name) @reference.import)
(namespace_use_group_clause (namespace_name (name) @reference.import))
(namespace_aliasing_clause (name) @reference.ignore)
(namespace_name (name) @reference.ignore)
(variable_name (name) @reference.ignore)

(function_call_expression function: (name) @reference.call)
(function_call_expression function: (qualified_name (name) @reference.call .))
(member_call_expression
  object: (variable_name) @reference.receiver.self
  name: (name) @reference.call
  (#eq? @reference.receiver.self "$this"))
(member_call_expression object: (_) @reference.receiver name: (name) @reference.call)
(nullsafe_member_call_expression object: (_) @reference.receiver name: (name) @reference.call)
(scoped_call_expression scope: (relative_scope) @reference.receiver.self name: (name) @reference.call)
(scoped_call_expression scope: (_) @reference.receiver name: (name) @reference.call)
(object_creation_expression (name) @reference.call)
(object_creation_expression (qualified_name (name) @reference.call .))
(base_clause (name) @reference.inherit)
(base_clause (qualified_name (name) @reference.inherit .))
(class_interface_clause (name) @reference.inherit)
(class_interface_clause (qualified_name (name) @reference.inherit .))
(use_declaration (name) @reference.inherit)
(member_access_expression
  object: (variable_name) @reference.receiver.self
  name: (name) @reference.read
  (#eq? @reference.receiver.self "$this"))
(member_access_expression object: (_) @reference.receiver name: (name) @reference.read)
(class_constant_access_expression (_) @reference.receiver . (name) @reference.read .)
(named_type (name) @reference.type)
(named_type (qualified_name (name) @reference.type .))
(name) @reference.read
