/** Validating and building a one-time token from the card data a host registers. */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type DomainError, invalid } from '../errors.js';
import { CARD_TYPES, type CardType, type OneTimeToken, type OneTimeTokenFields } from './types.js';

/** Tokens are 1 to 255 letters, digits, `_` or `-` (they appear in a URL path). */
export const isTokenText = (token: string): boolean => /^[A-Za-z0-9_-]{1,255}$/.test(token);

const isCardType = (value: string): value is CardType => (CARD_TYPES as readonly string[]).includes(value);

/** The card type a number's prefix suggests (`bogus` for the test numbers and anything unknown). */
export function cardTypeOfNumber(number: string): CardType {
  if (/^4/.test(number)) return 'visa';
  if (/^5[1-5]/.test(number)) return 'master';
  if (/^3[47]/.test(number)) return 'american_express';
  if (/^6/.test(number)) return 'discover';
  return 'bogus';
}

/**
 * Builds a token row, or the first validation error (422).
 * @example
 * buildOneTimeToken(1, { token: 'tok_1', firstName: 'Ada', lastName: 'Lovelace', fullNumber: '4111111111111111',
 *   expirationMonth: 12, expirationYear: 2030 }) // ok({ ..., lastFour: '1111', cardType: 'visa' })
 */
export function buildOneTimeToken(id: number, fields: OneTimeTokenFields): Result<OneTimeToken, DomainError> {
  if (!isTokenText(fields.token))
    return err(invalid('invalid_token', 'Token: must be 1 to 255 letters, digits, _ or -.', 'token'));
  const firstName = fields.firstName.trim();
  const lastName = fields.lastName.trim();
  if (firstName === '') return err(invalid('invalid_token', 'First name: cannot be blank.', 'first_name'));
  if (lastName === '') return err(invalid('invalid_token', 'Last name: cannot be blank.', 'last_name'));
  const number = fields.fullNumber.replace(/[\s-]/g, '');
  if (!/^\d{4,19}$/.test(number))
    return err(invalid('invalid_token', 'Credit card number: must be 4 to 19 digits.', 'full_number'));
  const { expirationMonth, expirationYear } = fields;
  if (!Number.isInteger(expirationMonth) || expirationMonth < 1 || expirationMonth > 12)
    return err(invalid('invalid_token', 'Expiration month: must be 1 to 12.', 'expiration_month'));
  if (!Number.isInteger(expirationYear) || expirationYear < 1970 || expirationYear > 9999)
    return err(invalid('invalid_token', 'Expiration year: must be 1970 to 9999.', 'expiration_year'));
  const cardType = fields.cardType?.trim() || cardTypeOfNumber(number);
  if (!isCardType(cardType))
    return err(invalid('invalid_token', `Card type: ${cardType} is not a known card type.`, 'card_type'));
  return ok({
    id,
    token: fields.token,
    firstName,
    lastName,
    lastFour: number.slice(-4),
    cardType,
    expirationMonth,
    expirationYear,
    billingAddress: fields.billingAddress ?? '',
    billingAddress2: fields.billingAddress2 ?? '',
    billingCity: fields.billingCity ?? '',
    billingState: fields.billingState ?? '',
    billingZip: fields.billingZip ?? '',
    billingCountry: fields.billingCountry ?? '',
    vaultToken: `bogus_token_${id}`,
  });
}

/**
 * The token the engine gives a registration that names none: `tok_` and 24 hex digits of an HMAC-SHA256
 * of the row id under the site's secret, so tokens are deterministic but not guessable without it.
 * @example generatedToken(1, 'secret') // 'tok_' + 24 hex digits
 */
export const generatedToken = (id: number, secret: string): string =>
  `tok_${bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`one_time_token/${id}`))).slice(0, 24)}`;
