; PHP definitions. Namespaces are file-level statements in most code and do not
; qualify names; constants are `const` at the top level or in a class.

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
