; Metrics captures for Ruby; capture names are described in src/analysis/metrics.ts.

(method name: (_) @function.name) @function
(singleton_method name: (_) @function.name) @function
(class name: (_) @class.name) @class
(module name: (_) @class.name) @class

(if) @decision
(elsif) @decision
(unless) @decision
(while) @decision
(until) @decision
(for) @decision
(when) @decision
(rescue) @decision
(conditional) @decision
(if_modifier) @decision
(unless_modifier) @decision
(while_modifier) @decision
(until_modifier) @decision

(binary operator: ["&&" "||" "and" "or"]) @halstead.logical
(binary
  operator: ["+" "-" "*" "/" "%" "**" "<<" ">>" "&" "|" "^"]) @halstead.binary
(binary operator: ["==" "!=" "<" "<=" ">" ">=" "<=>" "===" "=~" "!~"]) @halstead.compare
(unary) @halstead.unary
(operator_assignment) @halstead.assign

(comment) @comment
