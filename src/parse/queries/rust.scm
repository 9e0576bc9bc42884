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
