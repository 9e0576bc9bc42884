; C# definitions. Namespaces qualify what they hold (`Demo.App.Greeter`). Constants
; are `const` fields. Delegates are types.

(class_declaration
  name: (identifier) @name
  body: (_) @body) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name
  body: (_) @body) @definition.struct

(interface_declaration
  name: (identifier) @name
  body: (_) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

(delegate_declaration
  name: (identifier) @name) @definition.type

(method_declaration
  name: (identifier) @name
  body: (_)? @body) @definition.method

(constructor_declaration
  name: (identifier) @name
  body: (_)? @body) @definition.constructor

(destructor_declaration
  name: (identifier) @name
  body: (_)? @body) @definition.method

; Operators are members an outline lists (`operator +`, `explicit operator bool`):
; named by their keyword.
(operator_declaration
  "operator" @name
  body: (_)? @body) @definition.method

(conversion_operator_declaration
  "operator" @name
  body: (_)? @body) @definition.method

; A local function is its method's child (`Method.Local`).
(local_function_statement
  name: (identifier) @name
  body: (_)? @body) @definition.function

(namespace_declaration
  name: (_) @name
  body: (_) @body) @definition.namespace

(file_scoped_namespace_declaration
  name: (_) @name) @definition.namespace

(field_declaration
  (modifier) @_const
  (variable_declaration
    (variable_declarator (identifier) @name))
  (#eq? @_const "const")) @definition.constant

; ---------------------------------------------------------------------------------------
; Imports (`using`), local scopes and references (read by ../references.ts). A `using`
; names a namespace; `using X = A.B.C;` renames a type or namespace.

(namespace_declaration name: (_) @package)
(file_scoped_namespace_declaration name: (_) @package)
(using_directive (name_equals (identifier) @import.alias) [(identifier) (qualified_name)] @import.module)
(using_directive "static" @import.kind [(identifier) (qualified_name)] @import.module)
(using_directive [(identifier) (qualified_name)] @import.module)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(file_scoped_namespace_declaration name: (_) @import.statement)
(using_directive) @import.statement

(using_directive (_) @reference.ignore)
(using_directive (qualified_name (_) @reference.ignore))
(using_directive (qualified_name (qualified_name (_) @reference.ignore)))
(namespace_declaration name: (qualified_name (_) @reference.ignore))

[
  (method_declaration)
  (constructor_declaration)
  (local_function_statement)
  (lambda_expression)
  (accessor_declaration)
] @local.scope

(parameter
  type: [(identifier) @local.type (generic_name (identifier) @local.type)]
  name: (identifier) @local.definition)
(parameter name: (identifier) @local.definition)
(lambda_expression . (identifier) @local.definition)
(variable_declaration
  type: [(identifier) @local.type (generic_name (identifier) @local.type)]
  (variable_declarator (identifier) @local.definition))
(variable_declaration
  (variable_declarator
    (identifier) @local.definition
    (equals_value_clause
      (object_creation_expression type: [(identifier) @local.type (generic_name (identifier) @local.type)]))))
(local_declaration_statement (variable_declaration (variable_declarator (identifier) @local.definition)))
(for_each_statement left: (identifier) @local.definition)
(catch_declaration name: (identifier) @local.definition)
(local_function_statement name: (identifier) @local.definition)
(local_declaration_statement
  (variable_declaration
    (variable_declarator
      (identifier) @local.definition
      (equals_value_clause
        [(invocation_expression) (member_access_expression) (identifier)] @local.value))))
(for_each_statement
  type: [(identifier) (generic_name) (qualified_name)] @local.type
  left: (identifier) @local.definition)
(for_each_statement left: (identifier) @local.definition right: (_) @local.element)

; Declared types, read by the graph's receiver chains: fields, properties, method returns.
(field_declaration
  (variable_declaration
    type: [(identifier) (generic_name) (qualified_name) (array_type)] @declared.type
    (variable_declarator (identifier) @declared.name)))
(property_declaration
  type: [(identifier) (generic_name) (qualified_name) (array_type)] @declared.type
  name: (identifier) @declared.name)
(method_declaration
  type: [(identifier) (generic_name) (qualified_name) (array_type)] @declared.type
  name: (identifier) @declared.name)

(invocation_expression function: (identifier) @reference.call)
(invocation_expression function: (generic_name (identifier) @reference.call))
(invocation_expression
  function: (member_access_expression expression: (this_expression) @reference.receiver.self name: (identifier) @reference.call))
(invocation_expression
  function: (member_access_expression expression: (base_expression) @reference.receiver.self name: (identifier) @reference.call))
(invocation_expression
  function: (member_access_expression expression: (_) @reference.receiver name: (identifier) @reference.call))
(invocation_expression
  function: (member_access_expression expression: (_) @reference.receiver name: (generic_name (identifier) @reference.call)))
(object_creation_expression type: (identifier) @reference.call)
(object_creation_expression type: (generic_name (identifier) @reference.call))
(base_list (identifier) @reference.inherit)
(base_list (generic_name (identifier) @reference.inherit))
(base_list (qualified_name (_) @reference.receiver . (identifier) @reference.inherit .))
(assignment_expression left: (identifier) @reference.write)
(assignment_expression
  left: (member_access_expression expression: (this_expression) @reference.receiver.self name: (identifier) @reference.write))
(assignment_expression
  left: (member_access_expression expression: (_) @reference.receiver name: (identifier) @reference.write))
(member_access_expression expression: (this_expression) @reference.receiver.self name: (identifier) @reference.read)
(member_access_expression expression: (_) @reference.receiver name: (identifier) @reference.read)
(variable_declaration type: (identifier) @reference.type)
(parameter type: (identifier) @reference.type)
(method_declaration type: (identifier) @reference.type)
(property_declaration type: (identifier) @reference.type)
(generic_name (identifier) @reference.type)
(type_argument_list (identifier) @reference.type)
(identifier) @reference.read
