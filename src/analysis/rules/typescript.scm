; inherits: javascript
; Security facts for TypeScript: JavaScript's (javascript.scm, which TSX uses) without
; the JSX attributes, which TypeScript's grammar does not have.

; section: jsx
