; Java definitions. Constants are `static final` fields (Java has no module level).
; Members of anonymous classes are not indexed (they cannot be named from outside).

(object_creation_expression
  (class_body) @local)

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(record_declaration
  name: (identifier) @name
  body: (_) @body) @definition.class

(interface_declaration
  name: (identifier) @name
  body: (_) @body) @definition.interface

(annotation_type_declaration
  name: (identifier) @name
  body: (_) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

(method_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.method

(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name
  body: (_) @body) @definition.constructor

(compact_constructor_declaration
  name: (identifier) @name
  body: (_) @body) @definition.constructor

(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant
