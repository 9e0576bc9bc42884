; Go definitions. A method's parent is its receiver's type (`func (s *Server) Start()`
; → `Server.Start`). Interface method specs become methods of the interface.

(function_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @parent
        (pointer_type (type_identifier) @parent)
        (generic_type type: (type_identifier) @parent)
        (pointer_type (generic_type type: (type_identifier) @parent))
      ]))
  name: (field_identifier) @name
  body: (block)? @body) @definition.method

; Types declared at package level; one declared inside a function body is local (no
; outline lists it, and it can have no methods).
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type (field_declaration_list) @body)) @definition.struct))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type "{" @body)) @definition.interface))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name) @definition.type))

(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name) @definition.type))

; Methods of a package-level interface; the same specs in an inline interface type
; (`func Reporter(r interface{ PushStep(PathStep) })`) belong to no outline.
(source_file
  (type_declaration
    (type_spec
      type: (interface_type
        (method_spec
          name: (field_identifier) @name) @definition.method))))

; Package-level `var`/`const`, alone or grouped (`var ( … )`); each name of
; `var a, b int` is its own symbol (unfielded: a `name:` field pattern matches only the
; first of repeated names). Inside a function they are locals.
(source_file
  (const_declaration
    (const_spec
      (identifier) @name) @definition.constant))

(source_file
  (var_declaration
    (var_spec
      (identifier) @name) @definition.variable))

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts).

(package_clause (package_identifier) @package)
(import_spec name: (package_identifier) @import.alias path: (_) @import.module)
(import_spec name: (dot) @import.wildcard path: (_) @import.module)
(import_spec name: (blank_identifier) @import.kind path: (_) @import.module)
(import_spec path: (_) @import.module)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(import_declaration) @import.statement

[
  (function_declaration)
  (method_declaration)
  (func_literal)
] @local.scope

(parameter_declaration
  name: (identifier) @local.definition
  type: [
    (type_identifier) @local.type
    (pointer_type (type_identifier) @local.type)
    (qualified_type) @local.type
    (pointer_type (qualified_type) @local.type)
    (generic_type type: (type_identifier) @local.type)
    (pointer_type (generic_type type: (type_identifier) @local.type))
  ])
(parameter_declaration
  name: (identifier) @local.definition
  type: [(slice_type) (array_type) (map_type)] @local.type)
(parameter_declaration name: (identifier) @local.definition)
(variadic_parameter_declaration
  name: (identifier) @local.definition
  type: (_) @local.type)
(variadic_parameter_declaration name: (identifier) @local.definition)
(short_var_declaration
  left: (expression_list . (identifier) @local.definition .)
  right: (expression_list . [
    (composite_literal type: (type_identifier) @local.type)
    (unary_expression operand: (composite_literal type: (type_identifier) @local.type))
    (composite_literal type: (qualified_type) @local.type)
    (unary_expression operand: (composite_literal type: (qualified_type) @local.type))
  ] .))
; A table of rows (`tests := []struct{ flags []Flag }{…}`), a sequence or a struct literal:
; ranged over, its elements' fields are typed.
(short_var_declaration
  left: (expression_list . (identifier) @local.definition .)
  right: (expression_list .
    (composite_literal type: [(slice_type) (array_type) (map_type) (struct_type)] @local.type) .))
; A function literal with a result (`getCmd := func() *Command {…}`): calling it gives one.
(short_var_declaration
  left: (expression_list . (identifier) @local.definition .)
  right: (expression_list . (func_literal result: (_)) @local.type .))
(short_var_declaration
  left: (expression_list . (identifier) @local.definition)
  right: (expression_list . [(call_expression) (selector_expression) (identifier) (index_expression)] @local.value .))
(short_var_declaration
  left: (expression_list . (identifier) @local.definition)
  right: (expression_list . (type_assertion_expression type: (_) @local.type) .))
(short_var_declaration left: (expression_list (identifier) @local.definition))
(var_spec
  name: (identifier) @local.definition
  type: [
    (type_identifier) @local.type
    (pointer_type (type_identifier) @local.type)
    (qualified_type) @local.type
  ])
(var_spec
  name: (identifier) @local.definition
  value: (expression_list . [
    (composite_literal type: [(type_identifier) (qualified_type)] @local.type)
    (unary_expression operand: (composite_literal type: [(type_identifier) (qualified_type)] @local.type))
    (composite_literal type: [(slice_type) (array_type) (map_type) (struct_type)] @local.type)
  ] .))
(var_spec
  name: (identifier) @local.definition
  value: (expression_list . (func_literal result: (_)) @local.type .))
(var_spec
  name: (identifier) @local.definition
  value: (expression_list . [(call_expression) (selector_expression)] @local.value .))
(var_spec name: (identifier) @local.definition)
(const_spec name: (identifier) @local.definition)
(range_clause
  left: (expression_list (_) . (identifier) @local.definition .)
  right: (_) @local.element)
(range_clause left: (expression_list (identifier) @local.definition))
; `switch s := v.(type) { case T: … }`: in a case of one type, s is a T (a match that
; captures a scope and a definition binds the name in that scope).
(type_switch_statement
  alias: (expression_list (identifier) @local.definition)
  (type_case
    .
    type: [(type_identifier) (pointer_type) (qualified_type) (generic_type)] @local.type
    .
    (_)) @local.scope)
(type_switch_statement alias: (expression_list (identifier) @local.definition))
(labeled_statement label: (label_name) @reference.ignore)

; Declared types, read by the graph's receiver chains: struct fields (`parent *Command`),
; results of functions and methods (the first one), package-level variables, what a named
; sequence type holds (`type Options []Option`).
(field_declaration
  name: (field_identifier) @declared.name
  type: [
    (slice_type)
    (array_type)
    (map_type)
    (type_identifier)
    (pointer_type (type_identifier))
    (qualified_type)
    (pointer_type (qualified_type))
    (generic_type)
    (pointer_type (generic_type))
  ] @declared.type)
(function_declaration
  name: (identifier) @declared.name
  result: [
    (slice_type)
    (array_type)
    (map_type)
    (type_identifier)
    (pointer_type (type_identifier))
    (qualified_type)
    (pointer_type (qualified_type))
    (generic_type)
    (pointer_type (generic_type))
  ] @declared.type)
(function_declaration
  name: (identifier) @declared.name
  result: (parameter_list . (parameter_declaration type: (_) @declared.type)))
(method_declaration
  name: (field_identifier) @declared.name
  result: [
    (slice_type)
    (array_type)
    (map_type)
    (type_identifier)
    (pointer_type (type_identifier))
    (qualified_type)
    (pointer_type (qualified_type))
    (generic_type)
    (pointer_type (generic_type))
  ] @declared.type)
(method_declaration
  name: (field_identifier) @declared.name
  result: (parameter_list . (parameter_declaration type: (_) @declared.type)))
(method_spec
  name: (field_identifier) @declared.name
  result: [
    (slice_type)
    (array_type)
    (map_type)
    (type_identifier)
    (pointer_type (type_identifier))
    (qualified_type)
    (pointer_type (qualified_type))
  ] @declared.type)
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @declared.name
      type: [(slice_type) (array_type) (map_type)] @declared.type)))
(source_file
  (var_declaration
    (var_spec
      name: (identifier) @declared.name
      type: (_) @declared.type)))
(source_file
  (var_declaration
    (var_spec
      name: (identifier) @declared.name
      value: (expression_list . [(call_expression) (selector_expression) (unary_expression)] @declared.value .))))
; `var root = &Command{…}`: a composite literal is of its type.
(source_file
  (var_declaration
    (var_spec
      name: (identifier) @declared.name
      value: (expression_list . [
        (composite_literal type: [(type_identifier) (qualified_type)] @declared.type)
        (unary_expression operand: (composite_literal type: [(type_identifier) (qualified_type)] @declared.type))
      ] .))))

; A receiver that is a value of a type (`T{}.M()`, `(&T{}).M()`) or in parentheses (`(x).M`,
; the method expression `(*T).M`).
(call_expression
  function: (selector_expression
    operand: [
      (composite_literal type: (type_identifier) @reference.receiver.type)
      (parenthesized_expression [
        (composite_literal type: (type_identifier) @reference.receiver.type)
        (unary_expression operand: (composite_literal type: (type_identifier) @reference.receiver.type))
        (identifier) @reference.receiver
        (unary_expression operand: (identifier) @reference.receiver)
      ])
    ]
    field: (field_identifier) @reference.call))
(selector_expression
  operand: [
    (composite_literal type: (type_identifier) @reference.receiver.type)
    (parenthesized_expression [
      (composite_literal type: (type_identifier) @reference.receiver.type)
      (unary_expression operand: (composite_literal type: (type_identifier) @reference.receiver.type))
      (identifier) @reference.receiver
      (unary_expression operand: (identifier) @reference.receiver)
    ])
  ]
  field: (field_identifier) @reference.read)
; A conversion to a predeclared type (`uint32(x)`, `string(b)`) is no call (gopls agrees).
((call_expression function: (identifier) @reference.ignore)
  (#any-of? @reference.ignore
    "bool" "byte" "rune" "string" "error" "any" "uintptr" "int" "int8" "int16" "int32" "int64"
    "uint" "uint8" "uint16" "uint32" "uint64" "float32" "float64" "complex64" "complex128"))
(call_expression function: (identifier) @reference.call)
(call_expression
  function: (selector_expression operand: (_) @reference.receiver field: (field_identifier) @reference.call))
(composite_literal type: (type_identifier) @reference.call)
(composite_literal
  type: (qualified_type package: (package_identifier) @reference.receiver name: (type_identifier) @reference.call))
(field_declaration !name type: [
  (type_identifier) @reference.inherit
  (pointer_type (type_identifier) @reference.inherit)
])
(assignment_statement left: (expression_list (identifier) @reference.write))
(assignment_statement
  left: (expression_list
    (selector_expression operand: (_) @reference.receiver field: (field_identifier) @reference.write)))
(inc_statement (identifier) @reference.write)
(dec_statement (identifier) @reference.write)
(selector_expression operand: (_) @reference.receiver field: (field_identifier) @reference.read)
(qualified_type package: (package_identifier) @reference.receiver name: (type_identifier) @reference.type)
(type_identifier) @reference.type
(identifier) @reference.read
