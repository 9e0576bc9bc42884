; Metrics captures for Rust; capture names are described in src/analysis/metrics.ts.

(function_item name: (identifier) @function.name) @function
; The impl's type by its name, without generic arguments or path (`impl<P> FilterEntry<I, P>`
; holds FilterEntry's methods, as the symbol index names them).
(impl_item type: (type_identifier) @class.name) @class
(impl_item type: (generic_type type: (type_identifier) @class.name)) @class
(impl_item type: (scoped_type_identifier name: (type_identifier) @class.name)) @class
(impl_item
  type: (generic_type type: (scoped_type_identifier name: (type_identifier) @class.name))) @class
(trait_item name: (_) @class.name) @class

(if_expression) @decision
(for_expression) @decision
(while_expression) @decision
(match_arm) @decision

(binary_expression operator: ["&&" "||"]) @halstead.logical
(binary_expression
  operator: ["+" "-" "*" "/" "%" "<<" ">>" "&" "|" "^"]) @halstead.binary
(binary_expression operator: ["==" "!=" "<" "<=" ">" ">="]) @halstead.compare
(unary_expression) @halstead.unary
(compound_assignment_expr) @halstead.assign

(line_comment) @comment
(block_comment) @comment
