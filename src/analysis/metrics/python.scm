; Metrics captures for Python, read by src/analysis/metrics.ts (which describes the
; capture names). Chosen to count what radon counts: decisions as radon's
; ComplexityVisitor, operators and operands as its HalsteadVisitor.

; Scopes. radon visits only a function's body: parameters, return type and decorators
; count for neither metric; a class's bases and decorators count for Halstead only.
(function_definition
  name: (identifier) @function.name
  parameters: (_) @skip
  return_type: (_)? @skip) @function
(decorated_definition (decorator) @skip definition: (function_definition))
(decorated_definition (decorator) @skip.complexity definition: (class_definition))
(class_definition
  name: (identifier) @class.name
  superclasses: (_)? @skip.complexity) @class

; Decisions.
(if_statement) @decision
(elif_clause) @decision
(conditional_expression) @decision
(for_statement) @decision
(while_statement) @decision
(for_statement alternative: (else_clause) @decision)
(while_statement alternative: (else_clause) @decision)
(try_statement (else_clause) @decision)
(except_clause) @decision
(for_in_clause) @decision
(if_clause) @decision
; radon counts an assert and does not look inside it.
(assert_statement) @decision.barrier

; Operators (the node; its anonymous children are the operator, its named ones the
; operands).
(binary_operator) @halstead.binary
(unary_operator) @halstead.unary
(not_operator) @halstead.unary
(boolean_operator) @halstead.logical
(comparison_operator) @halstead.compare
(augmented_assignment) @halstead.assign

(comment) @comment
