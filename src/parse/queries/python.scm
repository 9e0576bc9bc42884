; Python definitions. Methods are functions inside a class body (the engine promotes
; them); `__init__` becomes a constructor. Constants: UPPER_CASE names assigned at
; module level; other names assigned there are variables.

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(function_definition
  name: (identifier) @name
  body: (block) @body) @definition.function

(assignment
  left: (identifier) @name
  right: (lambda body: (_) @body)) @definition.function

(module
  (expression_statement
    (assignment
      left: (identifier) @name)) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

; Other module-level names are variables (what an outline lists; references reach them).
(module
  (expression_statement
    (assignment
      left: (identifier) @name)) @definition.variable)

; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts).

(import_statement name: (dotted_name) @import.module)
(import_statement
  name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name)
(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.wildcard)

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(import_statement) @import.statement
(import_from_statement) @import.statement
(future_import_statement) @import.statement

[
  (function_definition)
  (lambda)
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (generator_expression)
] @local.scope

(parameters (identifier) @local.definition)
; pytest fills a test's bare parameter with what the fixture of its name gives
; (`def test_x(runner):`, `@pytest.fixture def runner(): return CliRunner()`).
(function_definition
  name: (identifier) @_test
  parameters: (parameters (identifier) @local.definition @local.injected)
  (#match? @_test "^test")
  (#not-match? @local.injected "^(self|cls)$"))
(lambda_parameters (identifier) @local.definition)
(default_parameter name: (identifier) @local.definition)
(typed_parameter
  (identifier) @local.definition
  type: (type [(identifier) (attribute)] @local.type))
; A type written as a string (`cmd: "Command"`), and `Optional[…]` of one or of a name.
(typed_parameter (identifier) @local.definition type: (type (string (string_content) @local.type)))
(typed_default_parameter name: (identifier) @local.definition type: (type (string (string_content) @local.type)))
([
  (typed_default_parameter
    name: (identifier) @local.definition
    type: (type (subscript
      value: [(identifier) (attribute attribute: (identifier))] @_optional
      subscript: [(string (string_content) @local.type) (identifier) @local.type (attribute) @local.type])))
  (typed_default_parameter
    name: (identifier) @local.definition
    type: (type (generic_type
      (identifier) @_optional
      (type_parameter (type [(identifier) (attribute)] @local.type)))))
]
  (#match? @_optional "Optional$"))
(typed_parameter (identifier) @local.definition)
(typed_default_parameter
  name: (identifier) @local.definition
  type: (type [(identifier) (attribute)] @local.type))
(typed_default_parameter name: (identifier) @local.definition)
(list_splat_pattern (identifier) @local.definition)
(dictionary_splat_pattern (identifier) @local.definition)
(assignment
  left: (identifier) @local.definition
  right: (call function: [(identifier) (attribute)] @local.type)
  (#match? @local.type "(^|[.])_*[A-Z][A-Za-z0-9_]*$"))
(assignment
  left: (identifier) @local.definition
  type: (type [(identifier) (attribute)] @local.type))
(assignment
  left: (identifier) @local.definition
  right: (call function: [(identifier) (attribute)]) @local.value)
(assignment left: (identifier) @local.definition)
(assignment left: [
  (pattern_list (identifier) @local.definition)
  (tuple_pattern (identifier) @local.definition)
  (list_pattern (identifier) @local.definition)
  (pattern_list (list_splat_pattern (identifier) @local.definition))
])
(augmented_assignment left: (identifier) @local.definition)
(for_statement left: (identifier) @local.definition)
(for_statement left: [
  (pattern_list (identifier) @local.definition)
  (tuple_pattern (identifier) @local.definition)
])
(for_in_clause left: (identifier) @local.definition)
(for_in_clause left: [
  (pattern_list (identifier) @local.definition)
  (tuple_pattern (identifier) @local.definition)
])
(as_pattern alias: (as_pattern_target (identifier) @local.definition))
(named_expression name: (identifier) @local.definition)
(function_definition name: (identifier) @local.definition)
(class_definition name: (identifier) @local.definition)

; `from m import name as name` (the re-export idiom): the alias names the import again.
(import_from_statement
  name: (aliased_import
    name: (dotted_name . (identifier) @_name .)
    alias: (identifier) @reference.import)
  (#eq? @_name @reference.import))
; `__all__ = ["a", "b"]` exports `a` and `b`: each entry names a definition in a string (a
; kind of its own, `export_list`, so that a caller can tell it from a use in code).
(assignment
  left: (identifier) @_all
  right: [(list (string (string_content) @reference.export_list))
          (tuple (string (string_content) @reference.export_list))]
  (#eq? @_all "__all__"))
(augmented_assignment
  left: (identifier) @_all
  right: [(list (string (string_content) @reference.export_list))
          (tuple (string (string_content) @reference.export_list))]
  (#eq? @_all "__all__"))
(keyword_argument name: (identifier) @reference.ignore)
(import_statement (dotted_name (identifier) @reference.ignore))
(aliased_import (dotted_name (identifier) @reference.ignore))
(aliased_import alias: (identifier) @reference.ignore)
(import_from_statement module_name: (dotted_name (identifier) @reference.ignore))
(relative_import (dotted_name (identifier) @reference.ignore))
; `global x` / `nonlocal x`: assignments to x in that function are not its locals; the
; declaration itself is a reference to the outer x.
(global_statement (identifier) @local.outer @reference.read)
(nonlocal_statement (identifier) @local.outer @reference.read)

; Declared types, read by the graph's receiver chains: annotated class attributes
; (`command: Command`, `command: "Command"`), attributes set on self (`self.x: T = …`,
; `self.x = Foo()`), return annotations.
(class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @declared.name
        type: (type [(identifier) (attribute) (string (string_content))] @declared.type)))))
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @declared.name)
  type: (type [(identifier) (attribute) (string (string_content))] @declared.type)
  (#eq? @_self "self"))
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @declared.name)
  right: (call function: [(identifier) (attribute)]) @declared.value
  (#eq? @_self "self"))
; `self.command = command`: of the local's type where it is assigned.
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @declared.name)
  right: (identifier) @declared.value
  (#eq? @_self "self"))
(function_definition
  name: (identifier) @declared.name
  return_type: (type [(identifier) (attribute) (string (string_content))] @declared.type))
; Without a return annotation: what the body returns at its top level (`return CliRunner()`;
; returns that disagree give no type), and what a pytest fixture yields.
(function_definition
  name: (identifier) @declared.name
  body: (block (return_statement (call function: [(identifier) (attribute)]) @declared.value)))
(decorated_definition
  (decorator) @_fixture
  definition: (function_definition
    name: (identifier) @declared.name
    body: (block
      (expression_statement (yield (call function: [(identifier) (attribute)]) @declared.value))))
  (#match? @_fixture "fixture"))

(call function: (identifier) @reference.call)
(call
  function: (attribute
    object: (identifier) @reference.receiver.self
    attribute: (identifier) @reference.call)
  (#match? @reference.receiver.self "^(self|cls)$"))
; `super().m()`, `super(C, self).m()`: the receiver is the enclosing class's bases.
(call
  function: (attribute
    object: (call function: (identifier) @_super) @reference.receiver.self
    attribute: (identifier) @reference.call)
  (#eq? @_super "super"))
(call
  function: (attribute
    object: (call function: [(identifier) (attribute)] @reference.receiver.type)
    attribute: (identifier) @reference.call)
  (#match? @reference.receiver.type "(^|[.])_*[A-Z][A-Za-z0-9_]*$"))
(call function: (attribute object: (_) @reference.receiver attribute: (identifier) @reference.call))
(decorator (identifier) @reference.call)
(decorator (attribute object: (_) @reference.receiver attribute: (identifier) @reference.call))

(class_definition superclasses: (argument_list (identifier) @reference.inherit))
(class_definition
  superclasses: (argument_list
    (attribute object: (_) @reference.receiver attribute: (identifier) @reference.inherit)))
; A generic base (`class File(ParamType[t.IO[t.Any]])`, `(abc.Mapping[K, V])`).
(class_definition superclasses: (argument_list (subscript value: (identifier) @reference.inherit)))
(class_definition
  superclasses: (argument_list
    (subscript
      value: (attribute object: (_) @reference.receiver attribute: (identifier) @reference.inherit))))

(type (identifier) @reference.type)
(type (attribute object: (_) @reference.receiver attribute: (identifier) @reference.type))
(type (subscript value: (identifier) @reference.type))
(type (generic_type (identifier) @reference.type))
; A forward reference written as a string (`x: "Call"`, `t.Optional["Call"]`, two levels deep).
((type (string (string_content) @reference.type))
  (#match? @reference.type "^[A-Za-z_][A-Za-z0-9_]*$"))
((type (subscript (string (string_content) @reference.type)))
  (#match? @reference.type "^[A-Za-z_][A-Za-z0-9_]*$"))
((type (subscript (subscript (string (string_content) @reference.type))))
  (#match? @reference.type "^[A-Za-z_][A-Za-z0-9_]*$"))
((type (generic_type (type_parameter (type (string (string_content) @reference.type)))))
  (#match? @reference.type "^[A-Za-z_][A-Za-z0-9_]*$"))

(assignment left: (identifier) @reference.write)
(augmented_assignment left: (identifier) @reference.write)
(assignment
  left: (attribute
    object: (identifier) @reference.receiver.self
    attribute: (identifier) @reference.write)
  (#match? @reference.receiver.self "^(self|cls)$"))
(assignment left: (attribute object: (_) @reference.receiver attribute: (identifier) @reference.write))
(augmented_assignment
  left: (attribute object: (_) @reference.receiver attribute: (identifier) @reference.write))

(attribute
  object: (identifier) @reference.receiver.self
  attribute: (identifier) @reference.read
  (#match? @reference.receiver.self "^(self|cls)$"))
(attribute object: (_) @reference.receiver attribute: (identifier) @reference.read)
(identifier) @reference.read
