; inherits: javascript
; Names for validate_code's unresolved-symbol check (src/analysis/unresolved.ts); see
; python.scm for the capture names.
; JavaScript's names (javascript.scm), plus TypeScript's declarations.

; section: imports
; inherited

(function_signature name: (identifier) @bind)
(enum_declaration name: (identifier) @bind)
(internal_module name: (_) @bind)
(interface_declaration name: (_) @bind)
(type_alias_declaration name: (_) @bind)
(abstract_class_declaration name: (_) @bind)
