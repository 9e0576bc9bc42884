; Kotlin definitions. `object` declarations are classes; members of a companion
; object belong to the enclosing class. Constants are top-level `const val`.

(class_declaration
  (type_identifier) @name
  (enum_class_body) @body) @definition.enum

(class_declaration
  "interface"
  (type_identifier) @name
  (class_body)? @body) @definition.interface

(class_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.class

(object_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.class

(function_declaration
  (simple_identifier) @name
  (function_body)? @body) @definition.function

(secondary_constructor
  "constructor" @name) @definition.constructor

(type_alias
  (type_identifier) @name) @definition.type

(source_file
  (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration (simple_identifier) @name)) @definition.constant
  (#eq? @_const "const"))
