/** Thrown only for a broken internal invariant: a bug, never bad input. */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

/**
 * Asserts an internal invariant.
 * @example invariant(total >= 0, 'total is never negative')
 */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}

/** Exhaustiveness check for discriminated unions. */
export function assertNever(value: never): never {
  throw new InvariantError(`unexpected value ${JSON.stringify(value)}`);
}
