; Go definitions. A method's parent is its receiver's type (`func (s *Server) Start()`
; → `Server.Start`). Interface method specs become methods of the interface.

(function_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @parent
        (pointer_type (type_identifier) @parent)
        (generic_type type: (type_identifier) @parent)
        (pointer_type (generic_type type: (type_identifier) @parent))
      ]))
  name: (field_identifier) @name
  body: (block)? @body) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list) @body)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type "{" @body)) @definition.interface

(type_spec
  name: (type_identifier) @name) @definition.type

(type_alias
  name: (type_identifier) @name) @definition.type

(method_spec
  name: (field_identifier) @name) @definition.method

(source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @definition.constant))
