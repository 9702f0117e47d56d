import { describe, expect, it } from 'vitest';
import { hasKeysInOrder } from '../../src/kernel/own-keys.js';

describe('an object with its keys in a given order', () => {
  it('is told from one with other keys, fewer or more, or the same in another order', () => {
    expect(hasKeysInOrder({ a: 1, b: 2 }, ['a', 'b'])).toBe(true);
    expect(hasKeysInOrder({}, [])).toBe(true);
    expect(hasKeysInOrder({ b: 2, a: 1 }, ['a', 'b'])).toBe(false);
    expect(hasKeysInOrder({ a: 1 }, ['a', 'b'])).toBe(false);
    expect(hasKeysInOrder({ a: 1, b: 2, c: 3 }, ['a', 'b'])).toBe(false);
    expect(hasKeysInOrder(JSON.parse('{"a":1,"__proto__":2}'), ['a', '__proto__'])).toBe(true);
  });
});
