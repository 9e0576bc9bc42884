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
