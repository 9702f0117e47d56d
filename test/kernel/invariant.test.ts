import { describe, expect, test } from 'vitest';
import { assertNever, InvariantError, invariant } from '../../src/kernel/invariant.js';

describe('invariant', () => {
  test('passes a truthy condition and throws an InvariantError with the message otherwise', () => {
    expect(() => invariant(1, 'never thrown')).not.toThrow();
    expect(() => invariant(0, 'total is never negative')).toThrow(
      expect.objectContaining({ name: 'InvariantError', message: 'total is never negative' }),
    );
    expect(() => invariant(null, 'x')).toThrow(InvariantError);
  });
});

describe('assertNever', () => {
  test('throws an InvariantError naming the unexpected value', () => {
    const unexpected = (value: 'a' | 'b'): string => {
      switch (value) {
        case 'a':
          return 'A';
        default:
          // A value the union should not allow, as data read from outside could carry.
          return assertNever(value as never);
      }
    };
    expect(unexpected('a')).toBe('A');
    expect(() => unexpected('b')).toThrow(new InvariantError('unexpected value "b"'));
    expect(() => unexpected('b')).toThrow(InvariantError);
  });
});
