; inherits: javascript
; Metrics captures for TypeScript and TSX: JavaScript's (javascript.scm) plus TypeScript's
; declarations; capture names are described in src/analysis/metrics.ts.

; section: functions
; inherited
(abstract_class_declaration name: (_) @class.name) @class
(interface_declaration name: (_) @class.name) @class
