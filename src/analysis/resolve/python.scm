; Names for validate_code's unresolved-symbol check (src/analysis/unresolved.ts):
; @bind names a snippet defines, @bind.all subtrees whose every identifier it defines
; (parameters, assignment targets), @call a called name, @member a called dotted name,
; @import an import statement.

(function_definition name: (identifier) @bind)
(class_definition name: (identifier) @bind)
(parameters) @bind.all
(lambda_parameters) @bind.all
(assignment left: (_) @bind.all)
(augmented_assignment left: (identifier) @bind)
(for_statement left: (_) @bind.all)
(for_in_clause left: (_) @bind.all)
(as_pattern_target) @bind.all
(named_expression name: (identifier) @bind)
(global_statement (identifier) @bind)
(nonlocal_statement (identifier) @bind)
(case_pattern) @bind.all
(type_alias_statement) @bind.all

(call function: (identifier) @call)
(call function: (attribute) @member)
(decorator (identifier) @call)

(import_statement) @import
(import_from_statement) @import
