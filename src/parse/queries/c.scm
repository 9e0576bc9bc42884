; C definitions. Functions are definitions with a body (prototypes are left out);
; `#define NAME value` is a constant, `#define NAME(args)` a macro; file-level tables and
; instances are constants or variables (section constants).

; section: functions
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]
  body: (_) @body) @definition.function

; section: records
(struct_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

; section: types
(type_definition
  declarator: (type_identifier) @name) @definition.type

; section: macros
(preproc_function_def
  name: (identifier) @name
  value: (_)? @body) @definition.macro

(preproc_def
  name: (identifier) @name) @definition.constant

; section: constants
; File-scope objects a reader looks for by name: every `const` (or `constexpr`) object with
; an initializer is a constant (`const struct cmd_entry cmd_x_entry = {…}`, `static const
; struct format_table_entry format_table[] = {…}`, `const struct cmd_entry *cmd_table[]`);
; among the others, tables and instances are variables: an array with an initializer, an
; initializer list `= {…}`, or a struct/union object with any initializer
; (`= RB_INITIALIZER(…)`). A plain `int n = 0;` and a declaration without an initializer
; are no symbols. Inside a function they are locals (the engine drops them), so the
; patterns need no file-level anchor and also find tables under `#if`.
((declaration
  (type_qualifier) @_const
  declarator: (init_declarator
    declarator: [
      (identifier) @name
      (array_declarator
        declarator: [
          (identifier) @name
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ])
      (pointer_declarator
        declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
    ])) @definition.constant
 (#match? @_const "^(const|constexpr)$"))

(declaration
  declarator: (init_declarator
    declarator: [
      (array_declarator
        declarator: [
          (identifier) @name
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ])
      (pointer_declarator
        declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
    ])) @definition.variable

(declaration
  declarator: (init_declarator
    declarator: (identifier) @name
    value: (initializer_list))) @definition.variable

(declaration
  type: [(struct_specifier) (union_specifier)]
  declarator: (init_declarator declarator: (identifier) @name)) @definition.variable

; section: includes
; ---------------------------------------------------------------------------------------
; Includes, local scopes and references (read by ../references.ts). A system include
; keeps its brackets (`<stdio.h>`).

(preproc_include path: (string_literal (string_content) @import.module))
(preproc_include path: (system_lib_string) @import.module)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(preproc_include) @import.statement

; section: scopes
(function_definition) @local.scope

; section: locals
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

; section: calls
(call_expression function: (identifier) @reference.call)
; section: references
(call_expression
  function: (field_expression argument: (_) @reference.receiver field: (field_identifier) @reference.call))
(assignment_expression left: (identifier) @reference.write)
(update_expression argument: (identifier) @reference.write)
(assignment_expression
  left: (field_expression argument: (_) @reference.receiver field: (field_identifier) @reference.write))
(field_expression argument: (_) @reference.receiver field: (field_identifier) @reference.read)
; A prototype (`int f(int);`, `struct job *f(…);`) declares the function it names.
(declaration declarator: [
  (function_declarator declarator: (identifier) @reference.declaration)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @reference.declaration))
  (pointer_declarator
    declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @reference.declaration)))
])
(type_identifier) @reference.type
(identifier) @reference.read
