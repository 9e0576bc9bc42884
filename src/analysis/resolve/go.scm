; Names for validate_code's unresolved-symbol check (src/analysis/unresolved.ts); see
; python.scm for the capture names.

(function_declaration name: (identifier) @bind)
(method_declaration name: (field_identifier) @bind)
(type_spec name: (type_identifier) @bind)
(parameter_list) @bind.all
(short_var_declaration left: (_) @bind.all)
(var_spec) @bind.all
(const_spec) @bind.all
(range_clause left: (_) @bind.all)
(labeled_statement label: (_) @bind)

(call_expression function: (identifier) @call)
(call_expression function: (selector_expression) @member)

(import_spec) @import
