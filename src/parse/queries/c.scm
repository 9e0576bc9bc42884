; C definitions. Functions are definitions with a body (prototypes are left out);
; `#define NAME value` is a constant, `#define NAME(args)` a macro; `const` objects at
; file level are constants.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]
  body: (_) @body) @definition.function

(struct_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

(type_definition
  declarator: (type_identifier) @name) @definition.type

(preproc_function_def
  name: (identifier) @name
  value: (_)? @body) @definition.macro

(preproc_def
  name: (identifier) @name) @definition.constant

(translation_unit
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant
  (#eq? @_const "const"))
