import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { idOfUid, parseId, uidOf } from '../../src/kernel/ids.js';

describe('uids', () => {
  test('examples', () => {
    expect(uidOf('inv', 1)).toBe('inv_0000000000001');
    expect(uidOf('cus', 36)).toBe('cus_0000000000010');
    expect(uidOf('inv', Number.MAX_SAFE_INTEGER)).toBe('inv_002gosa7pa2gv');
    expect(idOfUid('inv', 'inv_000000000000a')).toBe(10);
    expect(idOfUid('inv', 'inv_002gosa7pa2gv')).toBe(Number.MAX_SAFE_INTEGER);
  });

  test.each([
    ['cus_0000000000001'],
    ['inv_0000000000000'],
    ['inv_000000000000A'],
    ['inv_00000000001'],
    ['inv_00000000000001'],
    ['inv_002gosa7pa2gw'],
    ['inv_zzzzzzzzzzzzz'],
    ['inv-0000000000001'],
    ['inv_'],
    ['inv'],
    [''],
    ['invx_0000000000001'],
    ['inv_000000000000-1'],
  ])('idOfUid refuses %j', (uid) => {
    expect(idOfUid('inv', uid)).toBeUndefined();
  });

  const prefix = fc.constantFrom('inv', 'cus', 'sub', 'a_b');
  test.prop([prefix, fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })])(
    'law: idOfUid(uidOf(id)) round trips, with a fixed width that sorts like the id',
    (p, id) => {
      const uid = uidOf(p, id);
      expect(idOfUid(p, uid)).toBe(id);
      expect(uid).toMatch(new RegExp(`^${p}_[0-9a-z]{13}$`));
    },
  );

  test.prop([
    prefix,
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  ])('law: uid order is id order', (p, a, b) => {
    expect(uidOf(p, a) < uidOf(p, b)).toBe(a < b);
    expect(uidOf(p, a) === uidOf(p, b)).toBe(a === b);
  });
});

describe('parseId', () => {
  test.each([
    ['42', 42],
    ['1', 1],
    ['999999999999999', 999_999_999_999_999],
    [42, 42],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('accepts %j', (input, expected) => {
    expect(parseId(input)).toBe(expected);
  });

  test.each([
    ['0'],
    ['01'],
    ['1.5'],
    ['-1'],
    ['+1'],
    [' 1'],
    ['1 '],
    ['1e3'],
    ['0x1'],
    [''],
    ['1000000000000000'],
    [0],
    [-1],
    [-0],
    [1.5],
    [1e20],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [null],
    [undefined],
    [true],
    [[1]],
  ])('refuses %j', (input) => {
    expect(parseId(input)).toBeUndefined();
  });

  test('refuses a bigint', () => {
    expect(parseId(1n)).toBeUndefined();
  });

  test.prop([fc.integer({ min: 1, max: 999_999_999_999_999 })])(
    'law: parseId(String(id)) round trips',
    (id) => {
      expect(parseId(String(id))).toBe(id);
      expect(parseId(id)).toBe(id);
    },
  );
});
