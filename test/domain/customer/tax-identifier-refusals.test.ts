import { describe, expect, test } from 'vitest';
import {
  NO_TAX_IDENTIFIER,
  resolveTaxIdentifier,
  type TaxIdentifierState,
} from '../../../src/domain/customer/tax-identifier.js';
import { COMPANY, EMPTY, GLN, refused, resolved, VAT_DE } from './tax-identifier-fixtures.js';

describe('refusals name the field and say what is expected', () => {
  test('a kind without a value', () => {
    expect(refused(EMPTY, { entityIdentifierKind: 'gln' })).toMatchObject({
      field: 'entity_identifier_value',
      message: 'entity_identifier_value must be sent together with entity_identifier_kind',
    });
  });
  test('a value with a country but no kind', () => {
    expect(refused(EMPTY, { entityIdentifierValue: '123', vatCountry: 'DE' })).toMatchObject({
      code: 'entity_identifier_kind_required',
      field: 'entity_identifier_kind',
      message: 'entity_identifier_kind is required when vat_country is present',
    });
  });
  test('an unknown kind lists the supported ones', () => {
    expect(refused(EMPTY, { entityIdentifierKind: 'ssn', entityIdentifierValue: '1' })).toMatchObject({
      code: 'entity_identifier_kind_unsupported',
      field: 'entity_identifier_kind',
      message: 'entity_identifier_kind must be one of vat_eu, national_tax, company_reg, gln, duns, lei',
    });
  });
  test('a country-bound kind without a country', () => {
    expect(
      refused(EMPTY, { entityIdentifierKind: 'national_tax', entityIdentifierValue: '1' }),
    ).toMatchObject({
      code: 'vat_country_required',
      field: 'vat_country',
      message: 'vat_country is required for national_tax',
    });
  });
  test('a country that does not suit the kind, described per kind', () => {
    expect(
      refused(EMPTY, { entityIdentifierKind: 'vat_eu', entityIdentifierValue: 'X1', vatCountry: 'US' }),
    ).toMatchObject({
      code: 'vat_country_not_allowed',
      field: 'vat_country',
      message: 'vat_country must be an EU member state code or GB for vat_eu',
    });
    expect(
      refused(EMPTY, { entityIdentifierKind: 'national_tax', entityIdentifierValue: 'X1', vatCountry: 'DE' }),
    ).toMatchObject({
      code: 'vat_country_not_allowed',
      field: 'vat_country',
      message: 'vat_country must be a national tax country code for national_tax',
    });
  });
  test('a value in the wrong format for its kind', () => {
    expect(refused(EMPTY, { entityIdentifierKind: 'duns', entityIdentifierValue: '12345678' })).toMatchObject(
      {
        code: 'entity_identifier_value_format',
        field: 'entity_identifier_value',
        message: 'entity_identifier_value must be 9 digits for duns',
      },
    );
  });
});

describe('rule 6: no change is the very same stored object', () => {
  test('the same value under another kind is a change of kind', () => {
    expect(
      resolved(GLN, { entityIdentifierKind: 'company_reg', entityIdentifierValue: GLN.value ?? '' }),
    ).toEqual({
      ...GLN,
      kind: 'company_reg',
    });
  });
  test('clearing a customer without identifier returns it unchanged', () => {
    const current: TaxIdentifierState = { ...NO_TAX_IDENTIFIER };
    const viaPair = resolveTaxIdentifier(current, {
      entityIdentifierKind: 'gln',
      entityIdentifierValue: null,
    });
    const viaVatNumber = resolveTaxIdentifier(current, { vatNumber: null });
    expect(viaPair.ok && viaPair.value).toBe(current);
    expect(viaVatNumber.ok && viaVatNumber.value).toBe(current);
  });
  test('clearing a customer with an identifier stores no identifier', () => {
    expect(resolved(COMPANY, { vatNumber: null })).toBe(NO_TAX_IDENTIFIER);
    expect(resolved(VAT_DE, { entityIdentifierKind: 'vat_eu', entityIdentifierValue: null })).toBe(
      NO_TAX_IDENTIFIER,
    );
  });
  test('clearing removes a legacy number without kind, or a country left alone', () => {
    const legacyNumber: TaxIdentifierState = { kind: null, value: null, vatNumber: 'X1', vatCountry: null };
    const loneCountry: TaxIdentifierState = { kind: null, value: null, vatNumber: null, vatCountry: 'DE' };
    expect(resolved(legacyNumber, { vatNumber: null })).toBe(NO_TAX_IDENTIFIER);
    expect(resolved(loneCountry, { entityIdentifierKind: 'gln', entityIdentifierValue: null })).toBe(
      NO_TAX_IDENTIFIER,
    );
  });
});
