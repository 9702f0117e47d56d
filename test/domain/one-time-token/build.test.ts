import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  buildOneTimeToken,
  cardTypeOfNumber,
  generatedToken,
  isTokenText,
} from '../../../src/domain/one-time-token/build.js';
import type { OneTimeTokenFields } from '../../../src/domain/one-time-token/types.js';

const fields = (overrides: Partial<OneTimeTokenFields> = {}): OneTimeTokenFields => ({
  token: 'tok_1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullNumber: '4111111111111111',
  expirationMonth: 12,
  expirationYear: 2030,
  ...overrides,
});

const errorOf = (overrides: Partial<OneTimeTokenFields>) => {
  const result = buildOneTimeToken(1, fields(overrides));
  return result.ok ? undefined : result.error;
};

describe('isTokenText', () => {
  test('1 to 255 letters, digits, _ or -', () => {
    expect(isTokenText('tok_AZ-09')).toBe(true);
    expect(isTokenText('x')).toBe(true);
    expect(isTokenText('a'.repeat(255))).toBe(true);
    expect(isTokenText('a'.repeat(256))).toBe(false);
    expect(isTokenText('')).toBe(false);
    expect(isTokenText('tok 1')).toBe(false);
    expect(isTokenText('tok/1')).toBe(false);
    expect(isTokenText('/tok')).toBe(false);
    expect(isTokenText('tok/')).toBe(false);
  });
});

describe('cardTypeOfNumber', () => {
  test('reads the brand from the prefix', () => {
    expect(cardTypeOfNumber('4111111111111111')).toBe('visa');
    expect(cardTypeOfNumber('5105105105105100')).toBe('master');
    expect(cardTypeOfNumber('5555555555554444')).toBe('master');
    expect(cardTypeOfNumber('378282246310005')).toBe('american_express');
    expect(cardTypeOfNumber('341111111111111')).toBe('american_express');
    expect(cardTypeOfNumber('6011111111111117')).toBe('discover');
  });
  test('test numbers and unknown prefixes are bogus', () => {
    expect(cardTypeOfNumber('1')).toBe('bogus');
    expect(cardTypeOfNumber('5011111111111111')).toBe('bogus');
    expect(cardTypeOfNumber('5611111111111111')).toBe('bogus');
    expect(cardTypeOfNumber('3511111111111111')).toBe('bogus');
    expect(cardTypeOfNumber('1411')).toBe('bogus');
    expect(cardTypeOfNumber('1511')).toBe('bogus');
    expect(cardTypeOfNumber('1341')).toBe('bogus');
    expect(cardTypeOfNumber('1611')).toBe('bogus');
  });
});

describe('buildOneTimeToken', () => {
  test('keeps the last four digits, trims names, infers the card type and fills blank addresses', () => {
    expect(buildOneTimeToken(3, fields({ firstName: ' Ada ', lastName: ' Lovelace ' }))).toEqual({
      ok: true,
      value: {
        id: 3,
        token: 'tok_1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        lastFour: '1111',
        cardType: 'visa',
        expirationMonth: 12,
        expirationYear: 2030,
        billingAddress: '',
        billingAddress2: '',
        billingCity: '',
        billingState: '',
        billingZip: '',
        billingCountry: '',
        vaultToken: 'bogus_token_3',
      },
    });
  });
  test('keeps the billing address and a given card type', () => {
    const result = buildOneTimeToken(
      2,
      fields({
        fullNumber: '4111 1111-1111 1234',
        cardType: ' jcb ',
        billingAddress: '1 Main St',
        billingAddress2: 'Suite 2',
        billingCity: 'Springfield',
        billingState: 'IL',
        billingZip: '62701',
        billingCountry: 'US',
      }),
    );
    expect(result.ok && result.value).toMatchObject({
      lastFour: '1234',
      cardType: 'jcb',
      billingAddress: '1 Main St',
      billingAddress2: 'Suite 2',
      billingCity: 'Springfield',
      billingState: 'IL',
      billingZip: '62701',
      billingCountry: 'US',
    });
  });
  test('a blank card type falls back to the number', () => {
    const result = buildOneTimeToken(1, fields({ cardType: '  ', fullNumber: '6011000000000004' }));
    expect(result.ok && result.value.cardType).toBe('discover');
  });
  test('refuses each field with its own message', () => {
    expect(errorOf({ token: 'bad token' })).toEqual({
      code: 'invalid_token',
      status: 422,
      message: 'Token: must be 1 to 255 letters, digits, _ or -.',
      field: 'token',
    });
    expect(errorOf({ firstName: '  ' })).toEqual({
      code: 'invalid_token',
      status: 422,
      message: 'First name: cannot be blank.',
      field: 'first_name',
    });
    expect(errorOf({ lastName: '' })).toEqual({
      code: 'invalid_token',
      status: 422,
      message: 'Last name: cannot be blank.',
      field: 'last_name',
    });
    expect(errorOf({ cardType: 'platinum' })).toEqual({
      code: 'invalid_token',
      status: 422,
      message: 'Card type: platinum is not a known card type.',
      field: 'card_type',
    });
  });
  test('a card number is 4 to 19 digits once spaces and dashes are dropped', () => {
    const numberError = {
      code: 'invalid_token',
      status: 422,
      message: 'Credit card number: must be 4 to 19 digits.',
      field: 'full_number',
    };
    expect(errorOf({ fullNumber: '123' })).toEqual(numberError);
    expect(errorOf({ fullNumber: '1'.repeat(20) })).toEqual(numberError);
    expect(errorOf({ fullNumber: '4111x1111' })).toEqual(numberError);
    expect(errorOf({ fullNumber: 'x4111' })).toEqual(numberError);
    expect(errorOf({ fullNumber: '4111x' })).toEqual(numberError);
    expect(errorOf({ fullNumber: '1234' })).toBeUndefined();
    expect(errorOf({ fullNumber: '1'.repeat(19) })).toBeUndefined();
    expect(errorOf({ fullNumber: '12 34' })).toBeUndefined();
  });
  test('the expiration month is 1 to 12 and the year 1970 to 9999, whole', () => {
    const month = { message: 'Expiration month: must be 1 to 12.', field: 'expiration_month' };
    const year = { message: 'Expiration year: must be 1970 to 9999.', field: 'expiration_year' };
    for (const bad of [0, 13, 1.5]) expect(errorOf({ expirationMonth: bad })).toMatchObject(month);
    for (const good of [1, 12]) expect(errorOf({ expirationMonth: good })).toBeUndefined();
    for (const bad of [1969, 10_000, 2030.5]) expect(errorOf({ expirationYear: bad })).toMatchObject(year);
    for (const good of [1970, 9999]) expect(errorOf({ expirationYear: good })).toBeUndefined();
  });
});

describe('generatedToken', () => {
  test('is tok_ and the first 24 hex digits of HMAC-SHA256(secret, "one_time_token/<id>")', () => {
    const expected = createHmac('sha256', 'secret').update('one_time_token/1').digest('hex').slice(0, 24);
    expect(generatedToken(1, 'secret')).toBe(`tok_${expected}`);
    expect(generatedToken(1, 'secret')).toMatch(/^tok_[0-9a-f]{24}$/);
    expect(generatedToken(2, 'secret')).not.toBe(generatedToken(1, 'secret'));
    expect(generatedToken(1, 'other')).not.toBe(generatedToken(1, 'secret'));
  });
});
