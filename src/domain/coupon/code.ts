/** Coupon codes: the characters a code may hold and its one normal form. */

/** The longest code accepted. @example 'X'.repeat(COUPON_CODE_MAX_LENGTH + 1) // refused */
export const COUPON_CODE_MAX_LENGTH = 255;

const ALLOWED = /^[A-Za-z0-9%@+\-_.]+$/;

/**
 * The normal form of a coupon code or subcode: surrounding blanks removed, ASCII letters upper-cased.
 * A code holds only letters, digits and `% @ + - _ .`, as the official API allows, at most 255 of them;
 * anything else is undefined. Normalizing a normal form gives it back unchanged.
 * @example normalizeCouponCode(' spring-20% ') // 'SPRING-20%'
 * @example normalizeCouponCode('two words') // undefined
 */
export function normalizeCouponCode(text: string): string | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > COUPON_CODE_MAX_LENGTH || !ALLOWED.test(trimmed))
    return undefined;
  return trimmed.toUpperCase();
}
