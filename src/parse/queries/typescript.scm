; inherits: javascript
; TypeScript (and TSX) definitions: JavaScript's, plus interfaces, type aliases, enums,
; namespaces, overload and ambient signatures, abstract members. Interface members that
; are functions become methods of the interface.
; Only what differs from javascript.scm is written here: TypeScript names classes with
; `type_identifier`, calls fields `public_field_definition`, and wraps heritage in
; `extends_clause`/`implements_clause`.

; section: functions
; inherited

(function_signature
  name: (identifier) @name) @definition.function

; section: classes
(class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

(interface_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

(internal_module
  name: (_) @name
  body: (_) @body) @definition.namespace

(module
  name: (_) @name
  body: (_) @body) @definition.module

; section: methods
; inherited

; Members of an interface or a class: the same signatures inside an inline object type
; (`WebSocket?: { new (url: string): WebSocket }`) belong to no outline.
(interface_body
  (method_signature
    name: (_) @name) @definition.method)

(class_body
  (method_signature
    name: (_) @name) @definition.method)

(interface_body
  (construct_signature
    "new" @name) @definition.method)

(abstract_method_signature
  name: (_) @name) @definition.method

; section: field-methods
(public_field_definition
  name: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @definition.method

; section: module-level
; inherited

; `declare const x: T` / `export declare const x: T`, `declare var x: T`.
(program
  [
    (ambient_declaration
      (lexical_declaration kind: "const"
        (variable_declarator name: (identifier) @name) @definition.constant))
    (export_statement
      (ambient_declaration
        (lexical_declaration kind: "const"
          (variable_declarator name: (identifier) @name) @definition.constant)))
    (ambient_declaration
      (variable_declaration
        (variable_declarator name: (identifier) @name) @definition.variable))
    (export_statement
      (ambient_declaration
        (variable_declaration
          (variable_declarator name: (identifier) @name) @definition.variable)))
  ])

; section: class-expressions
(class
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

; section: inheritance
(class_heritage (extends_clause value: (identifier) @reference.inherit))
(class_heritage
  (extends_clause
    value: (member_expression object: (_) @reference.receiver property: (property_identifier) @reference.inherit)))

; section: imports
; inherited
; `import fs = require("fs")`: TypeScript's CommonJS import.
(import_statement
  (import_require_clause
    (identifier) @import.alias
    source: (string (string_fragment) @import.module)))

; section: late-locals
(required_parameter
  pattern: (identifier) @local.definition
  type: (type_annotation [
    (type_identifier) @local.type
    (generic_type) @local.type
    (nested_type_identifier name: (type_identifier) @local.type)
    (array_type) @local.type
  ]))
(optional_parameter
  pattern: (identifier) @local.definition
  type: (type_annotation [
    (type_identifier) @local.type
    (generic_type) @local.type
    (nested_type_identifier name: (type_identifier) @local.type)
    (array_type) @local.type
  ]))
; The first parameter of an array method's callback is an element (`xs.forEach((x) => …)`).
(call_expression
  function: (member_expression object: (_) @local.element property: (property_identifier) @_m)
  arguments: (arguments . [
    (arrow_function parameters: (formal_parameters . (required_parameter pattern: (identifier) @local.definition)))
    (function_expression parameters: (formal_parameters . (required_parameter pattern: (identifier) @local.definition)))
  ])
  (#match? @_m "^(forEach|map|flatMap|filter|find|findLast|findIndex|some|every)$"))
; A callback's parameters are typed by the callee's declaration
; (`operate((source, subscriber) => …)`, `new Observable((subscriber) => …)`).
(call_expression
  function: [(identifier) (member_expression)] @local.callee
  arguments: (arguments [
    (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
    (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
  ]))
(new_expression
  constructor: [(identifier) (member_expression)] @local.callee
  arguments: (arguments [
    (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
    (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
  ]))
; `function (this: T)`: `this` is a T there.
(required_parameter
  pattern: (this) @local.definition
  type: (type_annotation [
    (type_identifier) @local.type
    (generic_type) @local.type
  ]))
; `x: T | null`, `x?: T | undefined`: the type is T.
(required_parameter
  pattern: (identifier) @local.definition
  type: (type_annotation
    (union_type
      [(type_identifier) @local.type (generic_type) @local.type]
      (literal_type))))
(optional_parameter
  pattern: (identifier) @local.definition
  type: (type_annotation
    (union_type
      [(type_identifier) @local.type (generic_type) @local.type]
      (literal_type))))
(variable_declarator
  name: (identifier) @local.definition
  type: (type_annotation
    (union_type
      [(type_identifier) @local.type (generic_type) @local.type]
      (literal_type))))
(required_parameter pattern: (identifier) @local.definition)
(optional_parameter pattern: (identifier) @local.definition)
(variable_declarator
  name: (identifier) @local.definition
  type: (type_annotation [
    (type_identifier) @local.type
    (generic_type) @local.type
    (array_type) @local.type
  ]))
(class_declaration name: (type_identifier) @local.definition)
(type_parameter name: (type_identifier) @local.definition)

; Declared types, read by the graph's receiver chains: fields and interface properties
; (`#client: QueryClient`), constructor parameter properties (`private cache: Cache`),
; return types of functions and methods, module-level `const x: T`; `T | null` and
; `T | undefined` are T.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @declared.name
  type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @declared.name
  value: [(new_expression) (call_expression) (member_expression) (identifier)] @declared.value)
([
  (public_field_definition
    name: [(property_identifier) (private_property_identifier)] @declared.name
    type: (type_annotation (union_type . (_) @declared.type (literal_type))))
  (property_signature
    name: (property_identifier) @declared.name
    type: (type_annotation (union_type . (_) @declared.type (literal_type))))
  (method_definition
    name: (_) @declared.name
    return_type: (type_annotation (union_type . (_) @declared.type (literal_type))))
  (method_signature
    name: (_) @declared.name
    return_type: (type_annotation (union_type . (_) @declared.type (literal_type))))
  (function_declaration
    name: (identifier) @declared.name
    return_type: (type_annotation (union_type . (_) @declared.type (literal_type))))
])
; The parameters of a callback a function takes (`operate(init: (source: Observable<T>,
; subscriber: Subscriber<R>) => …)`), for the callbacks passed to it: the function and the
; position of its parameter are read from the tree around the function type.
(function_type
  parameters: (formal_parameters
    (required_parameter
      pattern: (identifier)
      type: (type_annotation [(type_identifier) (generic_type)] @declared.type)) @declared.parameter))
(property_signature
  name: (property_identifier) @declared.name
  type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @declared.name
  type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(function_declaration
  name: (identifier) @declared.name
  return_type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(function_signature
  name: (identifier) @declared.name
  return_type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(method_definition
  name: (_) @declared.name
  return_type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(method_signature
  name: (_) @declared.name
  return_type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(abstract_method_signature
  name: (_) @declared.name
  return_type: (type_annotation [
    (type_identifier) @declared.type
    (generic_type) @declared.type
    (nested_type_identifier) @declared.type
    (array_type) @declared.type
  ]))
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @declared.name
      type: (type_annotation [
        (type_identifier) @declared.type
        (generic_type) @declared.type
        (nested_type_identifier) @declared.type
        (array_type) @declared.type
      ]))))
(program
  (export_statement
    (lexical_declaration
      (variable_declarator
        name: (identifier) @declared.name
        type: (type_annotation [
          (type_identifier) @declared.type
          (generic_type) @declared.type
          (nested_type_identifier) @declared.type
          (array_type) @declared.type
        ])))))

;  The types of parameters (`<=j>`: parameter j), for the functions passed where they are
; declared (`next(value) {…}` in an object literal typed `Observer`): of functions, methods
; and signatures, of a function type alias (`type Op = (source: Obs) => Obs`), of a
; function-typed property (`onFetch: (context: Ctx) => void`) and of an interface's call
; signature.
([
  (function_declaration name: (identifier) @declared.name parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))
  (function_signature name: (identifier) @declared.name parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))
  (method_definition name: (_) @declared.name parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))
  (method_signature name: (_) @declared.name parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))
  (abstract_method_signature name: (_) @declared.name parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))
  (type_alias_declaration name: (_) @declared.name value: (function_type parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter)))
  (property_signature name: (_) @declared.name type: (type_annotation (function_type parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))))
  (interface_declaration name: (_) @declared.name body: (interface_body (call_signature parameters: (formal_parameters [
    (required_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
    (optional_parameter type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @declared.type))
  ] @declared.parameter))))
])

; Type parameters of classes, interfaces and type aliases, and the type arguments a class or
; interface gives its bases (`interface Op<T> extends Unary<Observable<T>>`): a member typed
; by a type parameter takes the type argument it is reached through.
[
  (interface_declaration type_parameters: (type_parameters (type_parameter name: (_) @declared.generic)))
  (type_alias_declaration type_parameters: (type_parameters (type_parameter name: (_) @declared.generic)))
  (class_declaration type_parameters: (type_parameters (type_parameter name: (_) @declared.generic)))
  (abstract_class_declaration type_parameters: (type_parameters (type_parameter name: (_) @declared.generic)))
]
(extends_type_clause type: (generic_type name: (_) @declared.base type_arguments: (_) @declared.arguments))
(type_alias_declaration value: (generic_type name: (_) @declared.base type_arguments: (_) @declared.arguments))
(class_heritage (extends_clause value: (identifier) @declared.base type_arguments: (_) @declared.arguments))
(class_heritage (implements_clause (generic_type name: (_) @declared.base type_arguments: (_) @declared.arguments)))

; Contextual types: a value's type from where it stands — the name it is assigned to
; (`const o: T = …`, a typed field), `as T` / `satisfies T`, the return type of the function
; that returns it (a `return` in the function's own block, an arrow's body), a member of an
; object literal (`{ key: … }`, `{ key() {…} }`), an argument (`f({…})`), parentheses.
(variable_declarator type: (type_annotation (_) @declared.type) value: (_) @declared.context)
(public_field_definition type: (type_annotation (_) @declared.type) value: (_) @declared.context)
(as_expression . (_) @declared.context (_) @declared.type .)
(satisfies_expression . (_) @declared.context (_) @declared.type .)
(arrow_function return_type: (type_annotation (_) @declared.type) body: (_) @declared.context)
([
  (function_declaration return_type: (type_annotation (_) @declared.type)
    body: (statement_block (return_statement (_) @declared.context)))
  (function_expression return_type: (type_annotation (_) @declared.type)
    body: (statement_block (return_statement (_) @declared.context)))
  (arrow_function return_type: (type_annotation (_) @declared.type)
    body: (statement_block (return_statement (_) @declared.context)))
  (method_definition return_type: (type_annotation (_) @declared.type)
    body: (statement_block (return_statement (_) @declared.context)))
])
(parenthesized_expression (_) @declared.context) @declared.holder
(object (pair key: (_) @declared.member value: (_) @declared.context)) @declared.holder
(object (method_definition name: (_) @declared.member) @declared.context) @declared.holder
(call_expression
  function: [(identifier) (member_expression)] @declared.callee
  arguments: (arguments (object) @declared.context))
(new_expression
  constructor: [(identifier) (member_expression)] @declared.callee
  arguments: (arguments (object) @declared.context))
; An object literal's methods stand for its type's members of their names.
(object (method_definition name: (_) @declared.literal)) @declared.holder
(object (pair
  key: (_) @declared.literal
  value: [(arrow_function) (function_expression)])) @declared.holder
; A function's parameters are typed by the function type where the function stands
; (`return (source) => …` from a function returning `Op`).
[
  (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
  (arrow_function parameter: (identifier) @local.definition)
  (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
  (method_definition parameters: (formal_parameters (required_parameter pattern: (identifier) @local.definition)))
] @local.contextual

(class_heritage
  (implements_clause [
    (type_identifier) @reference.inherit
    (generic_type name: (type_identifier) @reference.inherit)
    (nested_type_identifier module: (_) @reference.receiver name: (type_identifier) @reference.inherit)
  ]))
; `type A<T> = B<X<T>>`, `type A = B`: an alias has its value's members.
(type_alias_declaration value: (generic_type name: (type_identifier) @reference.inherit))
(type_alias_declaration value: (type_identifier) @reference.inherit)
(extends_type_clause type: [
  (type_identifier) @reference.inherit
  (generic_type name: (type_identifier) @reference.inherit)
  (nested_type_identifier module: (_) @reference.receiver name: (type_identifier) @reference.inherit)
])
(nested_type_identifier module: (_) @reference.receiver name: (type_identifier) @reference.type)
(type_identifier) @reference.type
