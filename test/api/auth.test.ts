import { describe, expect, it } from 'vitest';
import { isAuthorized } from '../../src/api/auth.js';

const basic = (user: string, password = 'x') => `Basic ${btoa(`${user}:${password}`)}`;

describe('isAuthorized', () => {
  it('accepts a key with x or X, refuses anything else, the same way when asked again', () => {
    const keys = ['secret', 'other'];
    for (let round = 0; round < 3; round += 1) {
      expect(isAuthorized(basic('secret'), keys)).toBe(true);
      expect(isAuthorized(basic('other', 'X'), keys)).toBe(true);
      expect(isAuthorized(basic('secret', 'y'), keys)).toBe(false);
      expect(isAuthorized(basic('secre'), keys)).toBe(false);
      expect(isAuthorized(`${basic('secret')}x`, keys)).toBe(false);
      expect(isAuthorized(undefined, keys)).toBe(false);
      expect(isAuthorized('Bearer secret', keys)).toBe(false);
    }
  });

  it('forgets a header once its key is gone, from a new list of keys or the same list changed in place', () => {
    const keys = ['secret', 'other'];
    expect(isAuthorized(basic('secret'), keys)).toBe(true);
    expect(isAuthorized(basic('secret'), ['other'])).toBe(false);
    keys.splice(0, 1);
    expect(isAuthorized(basic('secret'), keys)).toBe(false);
    expect(isAuthorized(basic('other'), keys)).toBe(true);
    keys[0] = 'third';
    expect(isAuthorized(basic('other'), keys)).toBe(false);
    expect(isAuthorized(basic('third'), keys)).toBe(true);
  });

  it('stays right past the number of headers it remembers', () => {
    const keys = Array.from({ length: 100 }, (_, n) => `key-${n}`);
    for (let round = 0; round < 2; round += 1)
      for (let n = 0; n < 100; n += 1) {
        expect(isAuthorized(basic(`key-${n}`), keys)).toBe(true);
        expect(isAuthorized(basic(`key-${n}x`), keys)).toBe(false);
      }
  });
});
