; inherits: c
; C++ definitions: C's, plus classes, namespaces, methods (bodies inside a class,
; declarations inside a class, and out-of-line `Type::name` definitions whose parent is
; `Type`), aliases. A method named like its class is a constructor. Constants and tables
; are C's (section constants), inside a namespace too.
; Only what differs from c.scm is written here.

; section: functions
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

; section: records
(class_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.class

; inherited

; section: types
(namespace_definition
  name: (_) @name
  body: (_) @body) @definition.namespace

; inherited

(alias_declaration
  name: (type_identifier) @name) @definition.type

; section: constants
; inherited

; A lambda at file scope (`auto f = [] { int xs[] = {…}; }`) holds locals, not tables.
(lambda_expression) @local

; section: scopes
[(function_definition) (lambda_expression)] @local.scope

; section: locals
; inherited

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

; section: calls
; inherited
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

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(using_declaration "namespace") @import.statement
