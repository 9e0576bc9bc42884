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

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts). An import's module is
; the whole path (`a.b.C`); selectors `{A, B => C}` are names.

(package_clause name: (_) @package)
(import_declaration path: (_) @import.module . )
(import_declaration
  path: (_) @import.module
  (import_selectors [
    (identifier) @import.name
    (renamed_identifier name: (identifier) @import.name alias: (identifier) @import.alias)
  ]))
(import_declaration path: (_) @import.module (wildcard) @import.wildcard)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(package_clause !body) @import.statement
(import_declaration) @import.statement

(import_declaration path: (stable_identifier (identifier) @reference.ignore))
(import_declaration path: (stable_identifier (stable_identifier (identifier) @reference.ignore)))
((identifier) @reference.ignore (#eq? @reference.ignore "this"))
(package_clause name: (_ (identifier) @reference.ignore))
(renamed_identifier alias: (identifier) @reference.ignore)

(function_definition) @local.scope

(parameter name: (identifier) @local.definition type: (type_identifier) @local.type)
(parameter name: (identifier) @local.definition)
(val_definition pattern: (identifier) @local.definition type: (type_identifier) @local.type)
(val_definition pattern: (identifier) @local.definition)
(var_definition pattern: (identifier) @local.definition)

(call_expression
  function: (field_expression value: (identifier) @reference.receiver.self field: (identifier) @reference.call)
  (#eq? @reference.receiver.self "this"))
(call_expression
  function: (field_expression value: (_) @reference.receiver field: (identifier) @reference.call))
(call_expression function: (identifier) @reference.call)
(extends_clause type: (type_identifier) @reference.inherit)
(extends_clause type: (compound_type base: (type_identifier) @reference.inherit))
(extends_clause type: (compound_type extra: (type_identifier) @reference.inherit))
(assignment_expression left: (identifier) @reference.write)
(field_expression value: (_) @reference.receiver field: (identifier) @reference.read)
(type_identifier) @reference.type
(identifier) @reference.read
