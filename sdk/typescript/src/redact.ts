/** Hiding secrets from `console.log`, `util.inspect` and `JSON.stringify`. */

/** The symbol Node's `util.inspect` calls, reached without importing `node:util`. */
export const INSPECT = Symbol.for("nodejs.util.inspect.custom");
