/**
 * Patterns that the rules of more than one language use.
 *
 * @module
 */

/** A query being built in a string: SQL's statement shapes. */
export const SQL = /(select\s.*from\s|delete\s+from\s|insert\s+into\s.*values\s|update\s.*set\s)/is;
