; Scala definitions. Objects are modules; `val`s of a top-level object or at the top
; level are constants.

(class_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(object_definition
  name: (identifier) @name
  body: (_)? @body) @definition.module

(trait_definition
  name: (identifier) @name
  body: (_)? @body) @definition.trait

(function_definition
  name: (identifier) @name
  body: (_)? @body) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type

(compilation_unit
  (val_definition
    pattern: (identifier) @name) @definition.constant)

(compilation_unit
  (object_definition
    body: (template_body
      (val_definition
        pattern: (identifier) @name) @definition.constant)))
