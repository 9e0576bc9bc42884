; C++ definitions: C's, plus classes, namespaces, methods (bodies inside a class,
; declarations inside a class, and out-of-line `Type::name` definitions whose parent is
; `Type`), aliases, constants at namespace level. A method named like its class is a
; constructor.

(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (namespace_identifier) @parent
      name: [(identifier) (destructor_name) (operator_name)] @name))
  body: (_) @body) @definition.method

(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: (qualified_identifier
        scope: (namespace_identifier) @parent
        name: [(identifier) (operator_name)] @name)))
  body: (_) @body) @definition.method

(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: (qualified_identifier
        scope: (namespace_identifier) @parent
        name: [(identifier) (operator_name)] @name)))
  body: (_) @body) @definition.method

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
  ]
  body: (_) @body) @definition.function

(field_declaration_list
  [
    (field_declaration
      declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
    (declaration
      declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name))
  ] @definition.method)

(class_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(struct_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

(namespace_definition
  name: (_) @name
  body: (_) @body) @definition.namespace

(type_definition
  declarator: (type_identifier) @name) @definition.type

(alias_declaration
  name: (type_identifier) @name) @definition.type

(preproc_function_def
  name: (identifier) @name
  value: (_)? @body) @definition.macro

(preproc_def
  name: (identifier) @name) @definition.constant

([(translation_unit) (declaration_list)]
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant
  (#match? @_const "^(const|constexpr)$"))

; ---------------------------------------------------------------------------------------
; Includes, local scopes and references (read by ../references.ts). A system include
; keeps its brackets (`<stdio.h>`).

(preproc_include path: (string_literal (string_content) @import.module))
(preproc_include path: (system_lib_string) @import.module)

[(function_definition) (lambda_expression)] @local.scope

(parameter_declaration declarator: (identifier) @local.definition)
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @local.definition))
(parameter_declaration declarator: (array_declarator declarator: (identifier) @local.definition))
(compound_statement (declaration declarator: (identifier) @local.definition))
(compound_statement (declaration declarator: (init_declarator declarator: (identifier) @local.definition)))
(compound_statement
  (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition))))
(compound_statement (declaration declarator: (pointer_declarator declarator: (identifier) @local.definition)))
(compound_statement (declaration declarator: (array_declarator declarator: (identifier) @local.definition)))
(compound_statement
  (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @local.definition))))
(for_statement initializer: (declaration declarator: (init_declarator declarator: (identifier) @local.definition)))

(compound_statement
  (declaration
    type: [(type_identifier) @local.type (template_type name: (type_identifier) @local.type)]
    declarator: [
      (identifier) @local.definition
      (init_declarator declarator: (identifier) @local.definition)
      (function_declarator declarator: (identifier) @local.definition)
    ]))
(compound_statement
  (declaration
    declarator: (init_declarator
      declarator: (identifier) @local.definition
      value: (new_expression type: (type_identifier) @local.type))))
(parameter_declaration
  type: [(type_identifier) @local.type (template_type name: (type_identifier) @local.type)]
  declarator: [
    (identifier) @local.definition
    (reference_declarator (identifier) @local.definition)
    (pointer_declarator declarator: (identifier) @local.definition)
  ])
(parameter_declaration declarator: (reference_declarator (identifier) @local.definition))
(compound_statement (declaration declarator: (function_declarator declarator: (identifier) @local.definition)))
(for_range_loop declarator: (identifier) @local.definition)
(lambda_capture_specifier (identifier) @local.definition)

(call_expression function: (identifier) @reference.call)
(call_expression
  function: (field_expression argument: (this) @reference.receiver.self field: (field_identifier) @reference.call))
(call_expression
  function: (qualified_identifier scope: (_) @reference.receiver name: (identifier) @reference.call))
(call_expression function: (qualified_identifier !scope name: (identifier) @reference.call))
(call_expression
  function: (template_function name: (identifier) @reference.call))
(new_expression type: (type_identifier) @reference.call)
(base_class_clause (type_identifier) @reference.inherit)
(base_class_clause (template_type name: (type_identifier) @reference.inherit))
(base_class_clause
  (qualified_identifier scope: (_) @reference.receiver name: (type_identifier) @reference.inherit))
(qualified_identifier scope: (_) @reference.receiver name: (identifier) @reference.read)
(qualified_identifier scope: (_) @reference.receiver name: (type_identifier) @reference.type)
(qualified_identifier
  scope: (_) @reference.receiver name: (template_type name: (type_identifier) @reference.type))
(field_expression argument: (this) @reference.receiver.self field: (field_identifier) @reference.read)
(namespace_identifier) @reference.ignore
(call_expression
  function: (field_expression argument: (_) @reference.receiver field: (field_identifier) @reference.call))
(assignment_expression left: (identifier) @reference.write)
(update_expression argument: (identifier) @reference.write)
(assignment_expression
  left: (field_expression argument: (_) @reference.receiver field: (field_identifier) @reference.write))
(field_expression argument: (_) @reference.receiver field: (field_identifier) @reference.read)
(type_identifier) @reference.type
(identifier) @reference.read
