import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { COUPON_CODE_MAX_LENGTH, normalizeCouponCode } from '../../../src/domain/coupon/code.js';

const ALLOWED = 'abcxyzABCXYZ0189%@+-_.';
/** Texts near the code alphabet: allowed characters, blanks, other ASCII and non-ASCII letters. */
const codeLike = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ALLOWED), maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...`${ALLOWED} \t/#ßıéİ`), maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...ALLOWED), minLength: 250, maxLength: 260 }),
  fc.string(),
);

describe('normalizeCouponCode', () => {
  test.prop([codeLike])('law: normalizing is idempotent (a normal form normalizes to itself)', (text) => {
    const once = normalizeCouponCode(text);
    if (once !== undefined) expect(normalizeCouponCode(once)).toBe(once);
  });

  test.prop([codeLike])(
    'law: a normal form holds only A-Z, 0-9 and % @ + - _ ., 1 to 255 of them',
    (text) => {
      const once = normalizeCouponCode(text);
      if (once !== undefined) {
        expect(once).toMatch(/^[A-Z0-9%@+\-_.]+$/);
        expect(once.length).toBeLessThanOrEqual(COUPON_CODE_MAX_LENGTH);
      }
    },
  );

  const asciiLike = fc.string({ unit: fc.constantFrom(...`${ALLOWED} \t/#`), maxLength: 20 });
  test.prop([asciiLike])(
    'law: ASCII codes that differ only in case or surrounding blanks normalize alike',
    (text) => {
      expect(normalizeCouponCode(` ${text.toLowerCase()}\t`)).toBe(normalizeCouponCode(text.toUpperCase()));
    },
  );

  it('upper-cases, trims, and refuses blanks, inner spaces, other characters and overlong codes', () => {
    expect(normalizeCouponCode(' spring-20% ')).toBe('SPRING-20%');
    expect(normalizeCouponCode('a@b.c+d_e')).toBe('A@B.C+D_E');
    for (const bad of ['', '   ', 'two words', 'ÉTÉ', 'straße', 'ıi', 'a/b', 'a#b', 'X'.repeat(256)])
      expect(normalizeCouponCode(bad), bad).toBeUndefined();
    expect(normalizeCouponCode('X'.repeat(255))).toBe('X'.repeat(255));
  });
});
