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
