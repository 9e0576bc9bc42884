; Rust definitions. An `impl` block is a scope: its functions become methods of the
; implemented type (`impl Foo { fn bar }` → `Foo.bar`). Constants and statics count at
; module level only.

(function_item
  name: (identifier) @name
  body: (block) @body) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name
  body: (_) @body) @definition.enum

(trait_item
  name: (type_identifier) @name
  body: (_) @body) @definition.trait

(type_item
  name: (type_identifier) @name) @definition.type

; A trait's associated type (`type Item;`), as an outline lists it.
(associated_type
  name: (type_identifier) @name) @definition.type

(mod_item
  name: (identifier) @name
  body: (_) @body) @definition.module

(macro_definition
  name: (identifier) @name
  ["{" "(" "["] @body) @definition.macro

(impl_item
  type: [
    (type_identifier) @name
    (primitive_type) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (reference_type type: (type_identifier) @name)
    (reference_type type: (generic_type type: (type_identifier) @name))
  ]
  body: (_) @body) @scope

; Any other implemented type (`impl<T> Trait for [T]`) is named by its text.
(impl_item
  type: (_) @name
  body: (_) @body) @scope

(source_file
  [
    (const_item name: (identifier) @name)
    (static_item name: (identifier) @name)
  ] @definition.constant)

(mod_item
  body: (declaration_list
    [
      (const_item name: (identifier) @name)
      (static_item name: (identifier) @name)
    ] @definition.constant))

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts). A `use` tree is the
; module as written (`crate::a::{b, c as d}`); the resolver expands it. `mod x;` (no
; body) imports the file of module x.

(use_declaration "use" @import.kind argument: (_) @import.module)
(mod_item "mod" @import.kind name: (identifier) @import.module !body)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(use_declaration) @import.statement
(mod_item !body) @import.statement
(extern_crate_declaration) @import.statement
(extern_crate_declaration
  "extern" @import.kind name: (identifier) @import.module alias: (identifier)? @import.alias)

(use_declaration argument: (scoped_identifier name: (identifier) @reference.import))
(use_list (identifier) @reference.import)
(use_list (scoped_identifier name: (identifier) @reference.import))
(use_as_clause path: (identifier) @reference.import)
(use_as_clause path: (scoped_identifier name: (identifier) @reference.import))
(use_as_clause alias: (identifier) @reference.ignore)
(use_declaration argument: (identifier) @reference.ignore)
(scoped_use_list path: (identifier) @reference.ignore)
(use_wildcard (identifier) @reference.ignore)
(mod_item name: (identifier) @reference.ignore)
(extern_crate_declaration name: (identifier) @reference.ignore)
(extern_crate_declaration alias: (identifier) @reference.ignore)

[
  (function_item)
  (closure_expression)
] @local.scope

(parameter
  pattern: (identifier) @local.definition
  type: [
    (type_identifier) @local.type
    (reference_type type: (type_identifier) @local.type)
    (generic_type type: (type_identifier) @local.type)
    (reference_type type: (generic_type type: (type_identifier) @local.type))
  ])
(parameter pattern: (identifier) @local.definition)
(parameter pattern: (mut_pattern (identifier) @local.definition))
(closure_parameters (identifier) @local.definition)
(closure_parameters (parameter pattern: (identifier) @local.definition))
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: [
    (type_identifier) @local.type
    (generic_type type: (type_identifier) @local.type)
  ])
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  value: [
    (struct_expression name: (type_identifier) @local.type)
    (call_expression function: (scoped_identifier path: (identifier) @local.type name: (identifier) @_ctor))
  ]
  (#match? @local.type "^[A-Z]"))
(let_declaration pattern: (identifier) @local.definition)
(let_declaration pattern: (mut_pattern (identifier) @local.definition))
(tuple_pattern (identifier) @local.definition)
(tuple_struct_pattern (identifier) @local.definition)
(struct_pattern (field_pattern name: (shorthand_field_identifier) @local.definition))
(field_pattern pattern: (identifier) @local.definition)
(ref_pattern (identifier) @local.definition)
(captured_pattern (identifier) @local.definition)
(for_expression pattern: (identifier) @local.definition)
(let_condition pattern: (_ (identifier) @local.definition))
(match_pattern (identifier) @local.definition)
(function_item name: (identifier) @local.definition)

;; Declared types, read by the graph's receiver chains (`self.cmd.find_group(…)`,
; `Command::new(…).arg(…).get_name()`): struct fields, what functions and methods return
; (`Self` is the implemented type) and the values locals are bound to. A reference, `Box`,
; `Rc`, `Arc` or `RefCell` of a type is the type (method calls go through them, a RefCell's
; through `borrow()`, below); other generics are their outer type (`Vec<T>` is a `Vec`,
; which is no project type).
(field_declaration
  name: (field_identifier) @declared.name
  type: [
    (type_identifier) @declared.type
    (scoped_type_identifier) @declared.type
    (reference_type type: (type_identifier) @declared.type)
    (reference_type type: (scoped_type_identifier) @declared.type)
    (reference_type type: (generic_type type: (_) @declared.type))
  ])
(field_declaration
  name: (field_identifier) @declared.name
  type: (generic_type type: (_) @declared.type)
  (#not-match? @declared.type "^(Box|Rc|Arc|RefCell)$"))
(field_declaration
  name: (field_identifier) @declared.name
  type: (generic_type
    type: (type_identifier) @_pointer
    type_arguments: (type_arguments .
      [(type_identifier) @declared.type (generic_type type: (_) @declared.type)]))
  (#match? @_pointer "^(Box|Rc|Arc|RefCell)$"))
(impl_item
  type: [(type_identifier) @declared.type (generic_type type: (type_identifier) @declared.type)]
  body: (declaration_list
    (function_item
      name: (identifier) @declared.name
      return_type: [(type_identifier) @_self (reference_type type: (type_identifier) @_self)]
      (#eq? @_self "Self"))))
(function_item
  name: (identifier) @declared.name
  return_type: [
    (type_identifier) @declared.type
    (scoped_type_identifier) @declared.type
    (reference_type type: (type_identifier) @declared.type)
    (reference_type type: (scoped_type_identifier) @declared.type)
    (reference_type type: (generic_type type: (_) @declared.type))
    (generic_type type: (_) @declared.type)
  ]
  (#not-match? @declared.type "^(Self|Box|Rc|Arc|RefCell)$"))
(function_item
  name: (identifier) @declared.name
  return_type: (generic_type
    type: (type_identifier) @_pointer
    type_arguments: (type_arguments .
      [(type_identifier) @declared.type (generic_type type: (_) @declared.type)]))
  (#match? @_pointer "^(Box|Rc|Arc|RefCell)$"))
; A tuple struct's fields are its positions (`struct S(pub A, B)`: `s.0` is an A), declared
; as its constructor's parameters (`S<=0>`).
(struct_item
  name: (type_identifier) @declared.name
  body: (ordered_field_declaration_list
    type: [(type_identifier) (scoped_type_identifier) (generic_type)] @declared.type @declared.parameter))
; What stands behind a borrow, a clone or a reference (`x.borrow_mut()`, `x.clone()`,
; `x.as_ref()`) is of x's type: the value bound, and a member's receiver (below).
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  !type
  value: (call_expression
    function: (field_expression value: (_) @local.value field: (field_identifier) @_through)
    arguments: (arguments))
  (#match? @_through "^(borrow|borrow_mut|clone|as_ref|as_mut|to_owned)$"))
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  !type
  value: [(reference_expression value: (_) @local.value) (_) @local.value])

; tree-sitter-rust reads `0..self.len()` as `(0..self).len()`: the receiver is the range's
; end.
(call_expression
  function: (field_expression
    value: (range_expression ".." . (self) @reference.receiver.self .)
    field: (field_identifier) @reference.call))
(call_expression
  function: (field_expression
    value: (range_expression ".." . (_) @reference.receiver .)
    field: (field_identifier) @reference.call))
(call_expression
  function: (field_expression
    value: (call_expression
      function: (field_expression value: (_) @reference.receiver field: (field_identifier) @_through)
      arguments: (arguments))
    field: (field_identifier) @reference.call)
  (#match? @_through "^(borrow|borrow_mut|clone|as_ref|as_mut|to_owned)$"))
(call_expression function: (identifier) @reference.call)
(call_expression
  function: (field_expression value: (self) @reference.receiver.self field: (field_identifier) @reference.call))
(call_expression
  function: (field_expression value: (_) @reference.receiver field: (field_identifier) @reference.call))
(call_expression
  function: (scoped_identifier path: (_) @reference.receiver name: (identifier) @reference.call))
(call_expression function: (generic_function function: (identifier) @reference.call))
(call_expression
  function: (generic_function
    function: (scoped_identifier path: (_) @reference.receiver name: (identifier) @reference.call)))
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @reference.receiver field: (field_identifier) @reference.call)))
(macro_invocation macro: (identifier) @reference.call)
(macro_invocation macro: (scoped_identifier path: (_) @reference.receiver name: (identifier) @reference.call))
(struct_expression name: (type_identifier) @reference.call)
; Calls inside macro arguments (`ok!(self.add_env(m))`, `debug!("…", m.name())`,
; `assert!(Foo::new(1).ok())`): tree-sitter leaves them as flat tokens, so a name followed by
; a parenthesized token tree is a call here, its receiver the name before `.` or `::`. The
; pattern written first wins a name: `self.cmd.name()`, `x.a.b.name()` are calls whose
; receiver spans the tokens up to `@reference.receiver.tail`; after a longer chain or a call
; (`a.b.c.d.name()`, `f().name()`) a name is a read with no receiver, never a call on the
; chain's middle name or a bare call.
; (Leading tokens are captured as `@_…`: tree-sitter skips repeated matches otherwise.)
(token_tree
  (self) @reference.receiver.self . "." . (identifier) @reference.call . (token_tree))
(token_tree (self) . "." . (identifier) @reference.ignore)
(token_tree
  "." @_dot . (identifier) . "." . (identifier) . "." . (identifier) . "." .
  (identifier) @reference.read)
(token_tree
  (self) @reference.receiver.self . "." . (identifier) . "." .
  (identifier) @reference.receiver.tail . "." . (identifier) @reference.call . (token_tree))
(token_tree
  (identifier) @reference.receiver . "." . (identifier) . "." .
  (identifier) @reference.receiver.tail . "." . (identifier) @reference.call . (token_tree))
(token_tree
  "." @_dot . (identifier) . "." . (identifier) . "." . (identifier) @reference.read)
(token_tree
  (self) @reference.receiver.self . "." . (identifier) @reference.receiver.tail . "." .
  (identifier) @reference.call . (token_tree))
(token_tree
  (identifier) @reference.receiver . "." . (identifier) @reference.receiver.tail . "." .
  (identifier) @reference.call . (token_tree))
(token_tree "." @_dot . (identifier) . "." . (identifier) @reference.read)
(token_tree
  (identifier) @reference.receiver . "." . (identifier) @reference.call . (token_tree))
(token_tree (identifier) . "." . (identifier) @reference.ignore)
(token_tree _ @_before . "." . (identifier) @reference.read)
(token_tree
  (identifier) @reference.receiver . "::" . (identifier) @reference.call . (token_tree))
(token_tree (identifier) @reference.receiver . "::" . (identifier) @reference.read)
(token_tree _ @_before . "::" . (identifier) @reference.read)
(token_tree (identifier) @reference.call . (token_tree "(" @_open))
(impl_item trait: (type_identifier) @reference.inherit)
(impl_item trait: (generic_type type: (type_identifier) @reference.inherit))
(impl_item trait: (scoped_type_identifier path: (_) @reference.receiver name: (type_identifier) @reference.inherit))
(trait_item bounds: (trait_bounds (type_identifier) @reference.inherit))
(assignment_expression left: (identifier) @reference.write)
(compound_assignment_expr left: (identifier) @reference.write)
; A member that is read or written, not called, is a struct field (Rust has no bound methods, and
; fields are no symbols here): no reference, rather than one of a method of that name.
(field_expression field: (field_identifier) @reference.ignore)
(scoped_identifier path: (_) @reference.receiver name: (identifier) @reference.read)
(scoped_type_identifier path: (_) @reference.receiver name: (type_identifier) @reference.type)
(type_identifier) @reference.type
(identifier) @reference.read
