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
