/**
 * Whether an object's own enumerable keys are exactly `keys`, in that order. A copy written out as a
 * literal of those keys (one hidden class, no spread through V8's runtime) then has the same JSON as the
 * object; one with other keys or another order (a state written by another version) is spread instead.
 * @example hasKeysInOrder({ a: 1, b: 2 }, ['a', 'b']) // true; hasKeysInOrder({ b: 2, a: 1 }, ['a', 'b']) // false
 */
export function hasKeysInOrder(value: object, keys: readonly string[]): boolean {
  let at = 0;
  for (const key in value) {
    if (key !== keys[at]) return false;
    at += 1;
  }
  return at === keys.length;
}
