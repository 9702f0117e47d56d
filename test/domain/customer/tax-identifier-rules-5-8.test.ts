import { describe, expect, test } from 'vitest';
import {
  presentTaxIdentifier,
  readTaxIdentifierUpdate,
  resolveTaxIdentifier,
} from '../../../src/domain/customer/tax-identifier.js';
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

describe('rule 5: with no entity identifier field, the kind derives from vat_country', () => {
  test('an EU member state or GB gives vat_eu', () => {
    for (const vatCountry of ['DE', 'fr', ' GB ', 'EL']) {
      expect(resolved(EMPTY, { vatNumber: 'x1', vatCountry })).toMatchObject({ kind: 'vat_eu', value: 'X1' });
    }
  });
  test('a national tax country gives national_tax', () => {
    expect(resolved(EMPTY, { vatNumber: '123456789RT0001', vatCountry: 'CA' })).toEqual(NATIONAL_CA);
    expect(resolved(EMPTY, { vatNumber: 'CHE-123', vatCountry: 'ch' }).kind).toBe('national_tax');
  });
  test('a blank or unrecognized country gives company_reg', () => {
    expect(resolved(EMPTY, { vatNumber: '732829320' })).toEqual(COMPANY);
    expect(resolved(EMPTY, { vatNumber: '732829320', vatCountry: '' })).toEqual(COMPANY);
    expect(resolved(EMPTY, { vatNumber: '12-3456789', vatCountry: 'US' })).toEqual({
      kind: 'company_reg',
      value: '12-3456789',
      vatNumber: '12-3456789',
      vatCountry: 'US',
    });
  });
  test('the stored country qualifies a new number, and a new country re-derives the stored number', () => {
    expect(resolved(VAT_DE, { vatNumber: 'DE999' })).toEqual({
      ...VAT_DE,
      value: 'DE999',
      vatNumber: 'DE999',
    });
    expect(resolved(COMPANY, { vatCountry: 'FR' })).toEqual({ ...COMPANY, kind: 'vat_eu', vatCountry: 'FR' });
    expect(resolved(VAT_DE, { vatCountry: null })).toEqual({
      ...VAT_DE,
      kind: 'company_reg',
      vatCountry: null,
    });
  });
  test('a vat_country with no number to qualify stores nothing', () => {
    expect(resolved(EMPTY, { vatCountry: 'DE' })).toEqual(EMPTY);
  });
});

describe('rule 6: sending a customer response straight back changes nothing', () => {
  test('each kind, sent back as presented, returns the very same state', () => {
    for (const state of [EMPTY, VAT_DE, NATIONAL_CA, COMPANY, GLN, DUNS, LEI]) {
      const update = readTaxIdentifierUpdate(presentTaxIdentifier(state));
      const result = resolveTaxIdentifier(state, update);
      expect(result.ok && result.value).toBe(state);
    }
  });
  test('a blank pair is no change', () => {
    for (const state of [EMPTY, VAT_DE, GLN]) {
      const result = resolveTaxIdentifier(state, { entityIdentifierKind: null, entityIdentifierValue: '' });
      expect(result.ok && result.value).toBe(state);
    }
  });
  test('a pair matching the stored identifier with the same vat_country is no change, however written', () => {
    const update = {
      entityIdentifierKind: 'VAT_EU',
      entityIdentifierValue: ' de123456789',
      vatCountry: 'de',
    };
    const result = resolveTaxIdentifier(VAT_DE, update);
    expect(result.ok && result.value).toBe(VAT_DE);
  });
  test('for gln, duns and lei the mirrored vat_number does not turn the kind into company_reg', () => {
    for (const state of [GLN, DUNS, LEI]) {
      const update = {
        entityIdentifierKind: state.kind,
        entityIdentifierValue: state.value,
        vatNumber: state.value,
      };
      expect(resolved(state, update)).toBe(state);
      expect(resolved(state, { vatNumber: state.value })).toBe(state);
    }
  });
});

describe('rule 7: entity identifier fields take precedence over vat_number', () => {
  test('with a pair, vat_number is ignored', () => {
    expect(
      resolved(EMPTY, {
        entityIdentifierKind: 'gln',
        entityIdentifierValue: '4012345000009',
        vatNumber: 'OTHER',
      }),
    ).toEqual(GLN);
    expect(
      resolved(GLN, { entityIdentifierKind: 'gln', entityIdentifierValue: GLN.value, vatNumber: '' }),
    ).toBe(GLN);
  });
  test('a different vat_country next to an unchanged pair is an edit, and is validated', () => {
    const pair = { entityIdentifierKind: 'vat_eu', entityIdentifierValue: 'DE123456789' };
    expect(resolved(VAT_DE, { ...pair, vatCountry: 'AT' })).toEqual({ ...VAT_DE, vatCountry: 'AT' });
    expect(refused(VAT_DE, { ...pair, vatCountry: 'US' })).toMatchObject({ field: 'vat_country' });
    expect(refused(VAT_DE, { ...pair, vatCountry: null })).toMatchObject({ code: 'vat_country_required' });
    expect(
      resolved(GLN, { entityIdentifierKind: 'gln', entityIdentifierValue: GLN.value, vatCountry: 'DE' }),
    ).toEqual({
      ...GLN,
      vatCountry: 'DE',
    });
  });
  test('changing only vat_number derives the kind, so gln, duns and lei become company_reg', () => {
    for (const state of [GLN, DUNS, LEI]) {
      expect(resolved(state, { vatNumber: '732829320' })).toEqual(COMPANY);
    }
    expect(
      resolved(GLN, { entityIdentifierKind: null, entityIdentifierValue: null, vatNumber: '732829320' }),
    ).toEqual(COMPANY);
  });
});

describe('rule 8: the value is repeated in vat_number', () => {
  test('the stored state mirrors the value', () => {
    const state = resolved(EMPTY, {
      entityIdentifierKind: 'vat_eu',
      entityIdentifierValue: 'fr12',
      vatCountry: 'FR',
    });
    expect(state.vatNumber).toBe(state.value);
  });
  test('the response carries kind, value, the value again in vat_number, and vat_country', () => {
    expect(presentTaxIdentifier(VAT_DE)).toEqual({
      entity_identifier_kind: 'vat_eu',
      entity_identifier_value: 'DE123456789',
      vat_number: 'DE123456789',
      vat_country: 'DE',
    });
    expect(presentTaxIdentifier(EMPTY)).toEqual({
      entity_identifier_kind: null,
      entity_identifier_value: null,
      vat_number: null,
      vat_country: null,
    });
  });
});

describe('reading the request', () => {
  test('fields that are not strings (or whole numbers) are refused, naming the field', () => {
    expect(refused(EMPTY, { vatNumber: { a: 1 } })).toMatchObject({
      code: 'tax_identifier_field_type',
      field: 'vat_number',
    });
    expect(refused(EMPTY, { vatNumber: 'X', vatCountry: 49 }).field).toBe('vat_country');
    expect(refused(EMPTY, { entityIdentifierKind: 'duns', entityIdentifierValue: 1.5 }).field).toBe(
      'entity_identifier_value',
    );
  });
  test('an update without tax fields changes nothing', () => {
    const result = resolveTaxIdentifier(VAT_DE, {});
    expect(result.ok && result.value).toBe(VAT_DE);
  });
  test('readTaxIdentifierUpdate keeps "sent null" apart from "not sent" and ignores other keys', () => {
    const customerBody: Record<string, unknown> = { vat_number: null, email: 'a@b.c' };
    expect(readTaxIdentifierUpdate(customerBody)).toEqual({ vatNumber: null });
    expect(readTaxIdentifierUpdate({})).toEqual({});
    const hostile = JSON.parse('{"__proto__": {"vat_number": "X"}, "vat_country": "DE"}') as Record<
      string,
      unknown
    >;
    expect(readTaxIdentifierUpdate(hostile)).toEqual({ vatCountry: 'DE' });
  });
});
