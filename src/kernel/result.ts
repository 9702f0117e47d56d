/** A value or an error, as data. Domain code returns these instead of throwing. */
export type Result<T, E> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

/**
 * Wraps a success.
 * @example ok(42) // { ok: true, value: 42 }
 */
export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

/**
 * Wraps a failure.
 * @example err('nope') // { ok: false, error: 'nope' }
 */
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });

/**
 * Collects the values of a list of results, or returns the first error.
 * @example all([ok(1), ok(2)]) // ok([1, 2])
 */
export function all<T, E>(results: readonly Result<T, E>[]): Result<T[], E> {
  const values: T[] = [];
  for (const result of results) {
    if (!result.ok) return result;
    values.push(result.value);
  }
  return ok(values);
}
