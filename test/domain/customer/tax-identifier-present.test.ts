import { describe, expect, test } from 'vitest';
import { presentTaxIdentifier } from '../../../src/domain/customer/tax-identifier.js';

describe('presentTaxIdentifier (rule 8)', () => {
  test('with a kind, vat_number repeats the identifier value', () => {
    expect(
      presentTaxIdentifier({ kind: 'gln', value: '4012345000009', vatNumber: 'stale', vatCountry: null }),
    ).toEqual({
      entity_identifier_kind: 'gln',
      entity_identifier_value: '4012345000009',
      vat_number: '4012345000009',
      vat_country: null,
    });
  });
  test('without a kind, a stored vat_number is shown as it is', () => {
    expect(presentTaxIdentifier({ kind: null, value: null, vatNumber: 'X1', vatCountry: 'DE' })).toEqual({
      entity_identifier_kind: null,
      entity_identifier_value: null,
      vat_number: 'X1',
      vat_country: 'DE',
    });
  });
});
