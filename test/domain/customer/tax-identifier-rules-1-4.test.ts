import { describe, expect, test } from 'vitest';
import { resolveTaxIdentifier } from '../../../src/domain/customer/tax-identifier.js';
import {
  COMPANY,
  DUNS,
  EMPTY,
  GLN,
  LEI,
  NATIONAL_CA,
  refused,
  resolved,
  VAT_DE,
} from './tax-identifier-fixtures.js';

describe('rule 1: kind and value are sent together; one identifier per customer', () => {
  test('a kind and a value set the identifier', () => {
    expect(resolved(EMPTY, { entityIdentifierKind: 'gln', entityIdentifierValue: '4012345000009' })).toEqual(
      GLN,
    );
    expect(
      resolved(EMPTY, {
        entityIdentifierKind: 'vat_eu',
        entityIdentifierValue: 'DE123456789',
        vatCountry: 'DE',
      }),
    ).toEqual(VAT_DE);
  });
  test('saving a different kind replaces the identifier (the stored vat_country stays unless sent)', () => {
    expect(resolved(GLN, { entityIdentifierKind: 'duns', entityIdentifierValue: '150483782' })).toEqual(DUNS);
    expect(resolved(VAT_DE, { entityIdentifierKind: 'duns', entityIdentifierValue: '150483782' })).toEqual({
      ...DUNS,
      vatCountry: 'DE',
    });
    expect(
      resolved(VAT_DE, { entityIdentifierKind: 'lei', entityIdentifierValue: LEI.value, vatCountry: null }),
    ).toEqual(LEI);
  });
  test('a kind sent without a value is refused, naming entity_identifier_value', () => {
    expect(refused(EMPTY, { entityIdentifierKind: 'gln' })).toMatchObject({
      code: 'entity_identifier_value_required',
      status: 422,
      field: 'entity_identifier_value',
    });
    expect(refused(GLN, { entityIdentifierKind: 'duns', vatNumber: '150483782' }).field).toBe(
      'entity_identifier_value',
    );
  });
});

describe('rule 2: vat_country for vat_eu and national_tax; supported kinds; gln, duns and lei formats', () => {
  test('vat_eu and national_tax without any vat_country are refused, naming vat_country', () => {
    for (const kind of ['vat_eu', 'national_tax']) {
      expect(refused(EMPTY, { entityIdentifierKind: kind, entityIdentifierValue: 'X1' })).toMatchObject({
        code: 'vat_country_required',
        field: 'vat_country',
      });
    }
    expect(
      refused(VAT_DE, { entityIdentifierKind: 'vat_eu', entityIdentifierValue: 'FR1', vatCountry: '' }).code,
    ).toBe('vat_country_required');
  });
  test("a country outside the kind's list is refused", () => {
    const cases = [
      ['vat_eu', 'US'],
      ['vat_eu', 'CH'],
      ['national_tax', 'DE'],
      ['national_tax', 'US'],
    ] as const;
    for (const [kind, vatCountry] of cases) {
      expect(
        refused(EMPTY, { entityIdentifierKind: kind, entityIdentifierValue: 'X1', vatCountry }),
      ).toMatchObject({
        code: 'vat_country_not_allowed',
        field: 'vat_country',
      });
    }
  });
  test('EU member states, GB and EL (Greece) qualify vat_eu; the national list qualifies national_tax', () => {
    for (const vatCountry of ['FR', 'GB', 'EL', 'GR', 'hr']) {
      expect(
        resolved(EMPTY, { entityIdentifierKind: 'vat_eu', entityIdentifierValue: 'N1', vatCountry }).kind,
      ).toBe('vat_eu');
    }
    expect(
      resolved(EMPTY, {
        entityIdentifierKind: 'national_tax',
        entityIdentifierValue: '123456789RT0001',
        vatCountry: 'ca',
      }),
    ).toEqual(NATIONAL_CA);
  });
  test('the stored vat_country counts when none is sent', () => {
    expect(resolved(VAT_DE, { entityIdentifierKind: 'vat_eu', entityIdentifierValue: 'DE999' })).toEqual({
      ...VAT_DE,
      value: 'DE999',
      vatNumber: 'DE999',
    });
  });
  test('an unsupported kind is refused, naming entity_identifier_kind', () => {
    for (const kind of ['siren', 'VAT', 'eu_vat', 42, true]) {
      expect(refused(EMPTY, { entityIdentifierKind: kind, entityIdentifierValue: '732829320' }).field).toBe(
        'entity_identifier_kind',
      );
    }
  });
  test('gln, duns and lei values in the wrong format are refused, naming entity_identifier_value', () => {
    const cases = [
      ['gln', '401234500000'],
      ['gln', '40123450000091'],
      ['gln', '401234500000A'],
      ['duns', '15-048-3782'],
      ['duns', '15048378'],
      ['lei', '5493001KJTIIGC8Y1R1X'],
      ['lei', '5493001KJTIIGC8Y1R1'],
    ] as const;
    for (const [kind, value] of cases) {
      expect(refused(EMPTY, { entityIdentifierKind: kind, entityIdentifierValue: value })).toMatchObject({
        code: 'entity_identifier_value_format',
        field: 'entity_identifier_value',
      });
    }
  });
  test('values are trimmed and upper-cased before the format check; kinds are read case-insensitively', () => {
    expect(
      resolved(EMPTY, { entityIdentifierKind: ' LEI ', entityIdentifierValue: ' 5493001kjtiigc8y1r12 ' }),
    ).toEqual(LEI);
    expect(resolved(EMPTY, { entityIdentifierKind: 'duns', entityIdentifierValue: 150483782 })).toEqual(DUNS);
  });
});

describe('rule 3: a value alone is company_reg, unless a vat_country is present', () => {
  test('with no vat_country it is stored as company_reg', () => {
    expect(resolved(EMPTY, { entityIdentifierValue: '732829320' })).toEqual(COMPANY);
    expect(resolved(GLN, { entityIdentifierValue: ' 732829320 ' })).toEqual(COMPANY);
    expect(resolved(EMPTY, { entityIdentifierKind: null, entityIdentifierValue: '732829320' })).toEqual(
      COMPANY,
    );
  });
  test('a vat_country sent blank next to it removes the country', () => {
    expect(resolved(VAT_DE, { entityIdentifierValue: '732829320', vatCountry: null })).toEqual(COMPANY);
  });
  test('with a vat_country sent or stored it is refused, naming entity_identifier_kind', () => {
    expect(refused(EMPTY, { entityIdentifierValue: '732829320', vatCountry: 'FR' })).toMatchObject({
      code: 'entity_identifier_kind_required',
      field: 'entity_identifier_kind',
    });
    expect(refused(VAT_DE, { entityIdentifierValue: '732829320' }).field).toBe('entity_identifier_kind');
  });
});

describe('rule 4: clearing', () => {
  test('a supported kind with a blank value clears whatever kind is stored, with vat_number and vat_country', () => {
    for (const value of ['', '   ', null]) {
      expect(resolved(VAT_DE, { entityIdentifierKind: 'gln', entityIdentifierValue: value })).toEqual(EMPTY);
      expect(
        resolved(NATIONAL_CA, { entityIdentifierKind: 'national_tax', entityIdentifierValue: value }),
      ).toEqual(EMPTY);
    }
    expect(
      resolved(VAT_DE, {
        entityIdentifierKind: 'vat_eu',
        entityIdentifierValue: '',
        vatNumber: 'DE1',
        vatCountry: 'DE',
      }),
    ).toEqual(EMPTY);
  });
  test('an unsupported kind with a blank value is still refused', () => {
    expect(refused(VAT_DE, { entityIdentifierKind: 'siren', entityIdentifierValue: '' }).field).toBe(
      'entity_identifier_kind',
    );
  });
  test('a null or blank vat_number clears, and a vat_country sent with it is not kept alone', () => {
    expect(resolved(VAT_DE, { vatNumber: null })).toEqual(EMPTY);
    expect(resolved(GLN, { vatNumber: '  ' })).toEqual(EMPTY);
    expect(resolved(VAT_DE, { vatNumber: '', vatCountry: 'FR' })).toEqual(EMPTY);
  });
  test('clearing an empty customer changes nothing', () => {
    expect(resolveTaxIdentifier(EMPTY, { vatNumber: null })).toEqual({ ok: true, value: EMPTY });
    const cleared = resolveTaxIdentifier(EMPTY, { entityIdentifierKind: 'gln', entityIdentifierValue: '' });
    expect(cleared.ok && cleared.value).toBe(EMPTY);
  });
});
