; Bash definitions: functions, and `readonly`/`declare -r` variables at the top level
; as constants.

(function_definition
  name: (word) @name
  body: (_) @body) @definition.function

(program
  (declaration_command
    "readonly"
    (variable_assignment
      name: (variable_name) @name)) @definition.constant)

; ---------------------------------------------------------------------------------------
; Imports (`source`, `.`) and calls (read by ../references.ts).

(command
  name: (command_name (word) @import.kind)
  argument: [(word) (string) (raw_string)] @import.module
  (#match? @import.kind "^(source|\\.)$"))

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
((command name: (command_name (word) @_source)) @import.statement
  (#match? @_source "^(source|\\.)$"))

(function_definition) @local.scope
(declaration_command (variable_assignment name: (variable_name) @local.definition))

(command name: (command_name (word) @_source) (#match? @_source "^(source|\\.)$")) @reference.ignore
(command name: (command_name (word) @reference.call))
