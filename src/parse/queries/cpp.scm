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
