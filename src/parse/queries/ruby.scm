; Ruby definitions. `def` inside a class or module is a method (`def self.x` too);
; constants are CONSTANT assignments at the top level.

(class
  name: [(constant) (scope_resolution)] @name
  body: (_)? @body) @definition.class

(module
  name: [(constant) (scope_resolution)] @name
  body: (_)? @body) @definition.module

(singleton_class
  value: (_) @name
  body: (_)? @body) @definition.class

(method
  name: (_) @name
  body: (_)? @body) @definition.function

(singleton_method
  name: (_) @name
  body: (_)? @body) @definition.method

(program
  (assignment
    left: (constant) @name) @definition.constant)

; ---------------------------------------------------------------------------------------
; Imports (`require`, `require_relative`, `load`), local scopes and references (read by
; ../references.ts). A bare name that is no local variable is a method call.

(call
  method: (identifier) @import.kind
  arguments: (argument_list . (string (string_content) @import.module) .)
  (#match? @import.kind "^(require|require_relative|load|autoload)$"))

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
((call method: (identifier) @_require arguments: (argument_list . (string) .)) @import.statement
  (#match? @_require "^(require|require_relative|load)$"))

[
  (method)
  (singleton_method)
  (block)
  (do_block)
  (lambda)
] @local.scope

(method_parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(block_parameters (identifier) @local.definition)
(optional_parameter name: (identifier) @local.definition)
(keyword_parameter name: (identifier) @local.definition)
(splat_parameter name: (identifier) @local.definition)
(hash_splat_parameter name: (identifier) @local.definition)
(block_parameter name: (identifier) @local.definition)
(destructured_parameter (identifier) @local.definition)
(assignment
  left: (identifier) @local.definition
  right: (call receiver: [(constant) @local.type (scope_resolution name: (constant) @local.type)] method: (identifier) @_new)
  (#eq? @_new "new"))
(assignment left: (identifier) @local.definition)
(operator_assignment left: (identifier) @local.definition)
(assignment left: (left_assignment_list (identifier) @local.definition))
(for pattern: (identifier) @local.definition)
(rescue variable: (exception_variable (identifier) @local.definition))

(call method: (identifier) @_req (#match? @_req "^(require|require_relative|load|autoload)$")) @reference.ignore

(call receiver: (self) @reference.receiver.self method: (identifier) @reference.call)
(call
  receiver: (call
    receiver: [(constant) (scope_resolution)] @reference.receiver.type
    method: (identifier) @_new)
  method: (identifier) @reference.call
  (#eq? @_new "new"))
(call receiver: (_) @reference.receiver method: (identifier) @reference.call)
(call method: (identifier) @reference.call)
(call
  receiver: (constant) @reference.call
  method: (identifier) @_new
  (#eq? @_new "new"))
(superclass (constant) @reference.inherit)
(superclass (scope_resolution scope: (_) @reference.receiver name: (constant) @reference.inherit))
(call
  method: (identifier) @_mixin
  arguments: (argument_list (constant) @reference.inherit)
  (#match? @_mixin "^(include|extend|prepend)$"))
(assignment left: (identifier) @reference.write)
(scope_resolution scope: (_) @reference.receiver name: (constant) @reference.read)
(constant) @reference.read
(identifier) @reference.call
