; Names for validate_code's unresolved-symbol check (src/analysis/unresolved.ts):
; @bind names a snippet defines, @bind.all subtrees whose every identifier it defines
; (parameters, assignment targets), @call a called name, @member a called dotted name,
; @import an import statement.

(function_definition name: (identifier) @bind)
(class_definition name: (identifier) @bind)
; Parameters bind their names only: not their defaults or annotations (`x=make()` calls make).
(parameters (identifier) @bind)
(lambda_parameters (identifier) @bind)
(default_parameter name: (identifier) @bind)
(typed_parameter . (identifier) @bind)
(typed_default_parameter name: (identifier) @bind)
(list_splat_pattern (identifier) @bind)
(dictionary_splat_pattern (identifier) @bind)
; An assignment binds names, not what a subscript or attribute target mentions
; (`table[key(x)] = v` calls key).
(assignment left: (identifier) @bind)
(assignment left: (pattern_list) @bind.all)
(assignment left: (tuple_pattern) @bind.all)
(assignment left: (list_pattern) @bind.all)
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
; A base class is called to build the class: `class Cmd(BaseComand)` is a missing name too.
(class_definition superclasses: (argument_list (identifier) @call))
(class_definition superclasses: (argument_list (attribute) @member))

(import_statement) @import
(import_from_statement) @import
