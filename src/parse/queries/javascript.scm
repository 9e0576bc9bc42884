; JavaScript definitions. Functions assigned to names (`const f = () => …`,
; `exports.f = function …`) are functions; methods are class members (object-literal
; methods are captured as methods of the enclosing definition). Constants: `const`
; declarations at the top level.

; section: functions
(function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

; section: classes
(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

; section: methods
(method_definition
  name: (_) @name
  body: (_) @body) @definition.method

; section: field-methods
(field_definition
  property: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @definition.method

; section: assigned
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
  ]) @definition.function

; `var f = (function f(…) {…})`, `var proto = module.exports = function …`: the
; declared name is the function (a chained or parenthesized value).
(variable_declarator
  name: (identifier) @name
  value: [
    (parenthesized_expression [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])
    (assignment_expression right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])
  ]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class body: (class_body) @body)) @definition.class

; Object-literal properties holding a function (`connector: () => new Subject()`) are
; methods of the object's definition, like `meth() {…}`.
(pair
  key: [
    (property_identifier) @name
    (string (string_fragment) @name)
    (number) @name
    (computed_property_name) @name
  ]
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
    (parenthesized_expression (arrow_function body: (_) @body))
  ]) @definition.method

; A named function expression that is no value of a name: passed as an argument
; (`defineGetter(req, 'ip', function ip() …)`), listed, returned, an operand
; (`a || function f() …`), called at once (`(function f() {…})()`) or exported
; (`module.exports = function query() …`).
[
  (arguments
    [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function)
  (array
    [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function)
  (return_statement
    [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function)
  (binary_expression
    [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function)
  (ternary_expression
    [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function)
  (arrow_function
    body: [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function)
]

(call_expression
  function: (parenthesized_expression
    [
      (function_expression name: (identifier) @name body: (_) @body)
      (generator_function name: (identifier) @name body: (_) @body)
    ] @definition.function))

; `validators[type] = function validator() …`: a name computed at run time, the
; function's own name.
(assignment_expression
  left: (subscript_expression)
  right: [
    (function_expression name: (identifier) @name body: (_) @body)
    (generator_function name: (identifier) @name body: (_) @body)
  ] @definition.function)

(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: [
    (function_expression name: (identifier) @name body: (_) @body)
    (generator_function name: (identifier) @name body: (_) @body)
  ] @definition.function
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; section: class-expressions
(class
  name: (identifier) @name
  body: (class_body) @body) @definition.class

; section: module-level
; A named class expression is its own name (class-expressions below).
(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: (class !name body: (class_body) @body)
  (#not-eq? @name "exports")) @definition.class

(assignment_expression
  left: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]
  right: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
    ; `a.x = a.y = function …`: each name of the chain.
    (assignment_expression right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])
  ]
  ; `module.exports = function …` names the module, not a function.
  (#not-eq? @name "exports")) @definition.function

; Top-level names: `const` ones are constants, `let`/`var` ones variables, destructured
; names too (`const { isArray } = Array`). Inside functions they are locals.
(program
  [
    (lexical_declaration kind: "const"
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.constant)
    (export_statement
      (lexical_declaration kind: "const"
        (variable_declarator
          name: [
            (identifier) @name
            (object_pattern (shorthand_property_identifier_pattern) @name)
            (object_pattern (pair_pattern value: (identifier) @name))
            (array_pattern (identifier) @name)
          ]) @definition.constant))
  ])

(program
  [
    (lexical_declaration kind: "let"
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.variable)
    (export_statement
      (lexical_declaration kind: "let"
        (variable_declarator
          name: [
            (identifier) @name
            (object_pattern (shorthand_property_identifier_pattern) @name)
            (object_pattern (pair_pattern value: (identifier) @name))
            (array_pattern (identifier) @name)
          ]) @definition.variable))
  ])

(program
  [
    (variable_declaration
      (variable_declarator
        name: [
          (identifier) @name
          (object_pattern (shorthand_property_identifier_pattern) @name)
          (object_pattern (pair_pattern value: (identifier) @name))
          (array_pattern (identifier) @name)
        ]) @definition.variable)
    (export_statement
      (variable_declaration
        (variable_declarator
          name: [
            (identifier) @name
            (object_pattern (shorthand_property_identifier_pattern) @name)
            (object_pattern (pair_pattern value: (identifier) @name))
            (array_pattern (identifier) @name)
          ]) @definition.variable))
  ])

; section: imports
; ---------------------------------------------------------------------------------------
; Imports, local scopes and references (read by ../references.ts).

(import_statement
  (import_clause
    (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string (string_fragment) @import.module))
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string (string_fragment) @import.module))
(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.module))
(import_statement source: (string (string_fragment) @import.module))
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (string (string_fragment) @import.module))
(export_statement
  (namespace_export (_) @import.alias)
  source: (string (string_fragment) @import.module))
(export_statement
  "*" @import.wildcard
  source: (string (string_fragment) @import.module))
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.module) .))
  (#eq? @_require "require"))
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @import.name
    (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)
  ])
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.module) .))
  (#eq? @_require "require"))
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @import.module) .)
  (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.module)))

; The lines of each import statement, shown to a reader of one definition (`@import.statement`).
(import_statement) @import.statement
(export_statement source: (_)) @import.statement
((lexical_declaration
  (variable_declarator
    value: (call_expression function: (identifier) @_require arguments: (arguments . (string) .))))
  @import.statement
  (#eq? @_require "require"))
((variable_declaration
  (variable_declarator
    value: (call_expression function: (identifier) @_require arguments: (arguments . (string) .))))
  @import.statement
  (#eq? @_require "require"))

; section: scopes
[
  (function_declaration)
  (generator_function_declaration)
  (function_expression)
  (generator_function)
  (arrow_function)
  (method_definition)
] @local.scope

(arrow_function parameter: (identifier) @local.definition)
; `if (x instanceof C) { … }`: x is a C in the block.
(if_statement
  condition: (parenthesized_expression
    (binary_expression
      left: (identifier) @local.definition
      operator: "instanceof"
      right: (identifier) @local.type))
  consequence: (statement_block) @local.scope)
(assignment_pattern left: (identifier) @local.definition)
(rest_pattern (identifier) @local.definition)
; `const { a } = obj`: a is obj.a.
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @local.definition)
  value: [(identifier) (this) (member_expression) (call_expression)] @local.destructured)
(object_pattern (shorthand_property_identifier_pattern) @local.definition)
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @local.definition)
(pair_pattern value: (identifier) @local.definition)
(array_pattern (identifier) @local.definition)
(variable_declarator
  name: (identifier) @local.definition
  value: (new_expression constructor: (identifier) @local.type))
; `xs.find(…)` is an element of xs; `(x) => …` passed to `xs.map` takes one.
(variable_declarator
  name: (identifier) @local.definition
  value: (call_expression
    function: (member_expression object: (_) @local.element property: (property_identifier) @_m))
  (#match? @_m "^(find|findLast|at|pop|shift)$"))
(call_expression
  function: (member_expression object: (_) @local.element property: (property_identifier) @_m)
  arguments: (arguments . (arrow_function parameter: (identifier) @local.definition))
  (#match? @_m "^(forEach|map|flatMap|filter|find|findLast|findIndex|some|every)$"))
; `var lib = require("./lib")` binds a module, which its import record says: the call is no
; value of lib (the import decides what `lib.repeat` is).
(variable_declarator
  name: (identifier) @local.definition
  value: [(member_expression) (identifier) (this)] @local.value)
(variable_declarator
  name: (identifier) @local.definition
  value: (call_expression function: (_) @_callee) @local.value
  (#not-eq? @_callee "require"))
(variable_declarator name: (identifier) @local.definition)

; Declared types, read by the graph's receiver chains: a property set in a method
; (`this.cache = new Cache()`, `this.#client = this.makeClient()`), a class field's value,
; a module-level `const x = new Foo()`.
; Every value assigned counts: values that disagree (`this.options = options`) give no type.
(assignment_expression
  left: (member_expression
    object: (this)
    property: [(property_identifier) (private_property_identifier)] @declared.name)
  right: [(new_expression) (call_expression) (member_expression) (identifier)] @declared.value)
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @declared.name
      value: (new_expression) @declared.value)))
(program
  (export_statement
    (lexical_declaration
      (variable_declarator
        name: (identifier) @declared.name
        value: (new_expression) @declared.value))))
(catch_clause parameter: (identifier) @local.definition)
(for_in_statement
  left: (identifier) @local.definition
  operator: "of"
  right: (_) @local.element)
(for_in_statement left: (identifier) @local.definition)
(function_declaration name: (identifier) @local.definition)
(generator_function_declaration name: (identifier) @local.definition)

; section: calls
; The local name of `import { a as b }` / `export { default as b } from` is a reference of
; the imported symbol too (the TypeScript language service counts it).
(import_specifier alias: (identifier) @reference.import)
(namespace_import (identifier) @reference.ignore)
(export_specifier alias: (_) @reference.import)
(import_specifier
  name: (_) @reference.ignore
  alias: (_)
  (#eq? @reference.ignore "default"))
(export_specifier
  name: (_) @reference.ignore
  alias: (_)
  (#eq? @reference.ignore "default"))
(labeled_statement label: (statement_identifier) @reference.ignore)

(call_expression function: (identifier) @reference.call)
; `f.call(this, …)` and `f.apply(this, args)` call `f` (the callee a call hierarchy shows);
; `call` or `apply` is then the member called on it, as below.
(call_expression
  function: (member_expression
    object: (identifier) @reference.call
    property: (property_identifier) @_invoke)
  (#match? @_invoke "^(call|apply)$"))
(call_expression
  function: (member_expression
    object: (this) @reference.receiver.self
    property: (property_identifier) @reference.call))
(call_expression
  function: (member_expression
    object: (super) @reference.receiver.self
    property: (property_identifier) @reference.call))
(call_expression
  function: (member_expression
    object: (new_expression constructor: [(identifier) (member_expression)] @reference.receiver.type)
    property: (property_identifier) @reference.call))
(call_expression
  function: (member_expression object: (_) @reference.receiver property: (property_identifier) @reference.call))
(new_expression constructor: (identifier) @reference.call)
(new_expression
  constructor: (member_expression object: (_) @reference.receiver property: (property_identifier) @reference.call))
(decorator (identifier) @reference.call)

; section: inheritance
(class_heritage (identifier) @reference.inherit)
(class_heritage
  (member_expression object: (_) @reference.receiver property: (property_identifier) @reference.inherit))

; section: writes-and-reads
(assignment_expression left: (identifier) @reference.write)
(augmented_assignment_expression left: (identifier) @reference.write)
(update_expression argument: (identifier) @reference.write)
(assignment_expression
  left: (member_expression object: (this) @reference.receiver.self property: (property_identifier) @reference.write))
(assignment_expression
  left: (member_expression object: (_) @reference.receiver property: (property_identifier) @reference.write))
(augmented_assignment_expression
  left: (member_expression object: (this) @reference.receiver.self property: (property_identifier) @reference.write))
(augmented_assignment_expression
  left: (member_expression object: (_) @reference.receiver property: (property_identifier) @reference.write))

(member_expression object: (this) @reference.receiver.self property: (property_identifier) @reference.read)
; `X.prototype.m`: the member `m` of X's instances (`bind(Axios.prototype.request, ctx)`).
(member_expression
  object: (member_expression
    object: [(identifier) (member_expression)] @reference.receiver.type
    property: (property_identifier) @_prototype)
  property: (property_identifier) @reference.read
  (#eq? @_prototype "prototype"))
(member_expression object: (_) @reference.receiver property: (property_identifier) @reference.read)
; `module.exports = { a, b }`: the module's export list (as Python's `__all__`), not a use — a
; blind answerer took `744 read: dataEqual,` for a call site (issue 35, nock).
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object (shorthand_property_identifier) @reference.export_list)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(shorthand_property_identifier) @reference.read

; section: late-locals
(class_declaration name: (identifier) @local.definition)
; A class field's value is a declared type too (TypeScript's fields have their own patterns).
(field_definition
  property: [(property_identifier) (private_property_identifier)] @declared.name
  value: [(new_expression) (call_expression) (member_expression) (identifier)] @declared.value)
; The first parameter of an array method's callback is an element (`xs.forEach((x) => …)`).
(call_expression
  function: (member_expression object: (_) @local.element property: (property_identifier) @_m)
  arguments: (arguments . [
    (arrow_function parameters: (formal_parameters . (identifier) @local.definition))
    (function_expression parameters: (formal_parameters . (identifier) @local.definition))
  ])
  (#match? @_m "^(forEach|map|flatMap|filter|find|findLast|findIndex|some|every)$"))
(formal_parameters (identifier) @local.definition)
; section: catch-all
(identifier) @reference.read
