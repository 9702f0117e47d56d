/** SPEC 4.4: the customer tax identifier rules through `PUT /customers/{id}.json`, one test per rule. */
import { describe, expect, it } from 'vitest';
import { get, Site } from '../../helpers/api.js';

function identifierOf(body: unknown) {
  return {
    kind: get(body, 'customer', 'entity_identifier_kind'),
    value: get(body, 'customer', 'entity_identifier_value'),
    vatNumber: get(body, 'customer', 'vat_number'),
    vatCountry: get(body, 'customer', 'vat_country'),
  };
}

function setup() {
  const site = new Site();
  const id = site.customer();
  const put = (fields: Record<string, unknown>) =>
    site.ok('PUT', `/customers/${id}.json`, { customer: fields });
  const refuse = (fields: Record<string, unknown>) =>
    JSON.stringify(site.fail('PUT', `/customers/${id}.json`, { customer: fields }, 422));
  return { site, id, put, refuse };
}

describe('customer tax identifiers (SPEC 4.4)', () => {
  it('rule 1: kind and value are sent together; a different kind replaces the identifier', () => {
    const { put, refuse } = setup();
    expect(refuse({ entity_identifier_kind: 'gln' })).toContain('entity_identifier_value');
    expect(
      identifierOf(put({ entity_identifier_kind: 'duns', entity_identifier_value: '123456789' })),
    ).toEqual({ kind: 'duns', value: '123456789', vatNumber: '123456789', vatCountry: null });
    expect(
      identifierOf(put({ entity_identifier_kind: 'lei', entity_identifier_value: '5493001kjtiigc8y1r12' })),
    ).toMatchObject({ kind: 'lei', value: '5493001KJTIIGC8Y1R12' });
  });

  it('rule 2: vat_eu and national_tax need a matching vat_country; unsupported kinds and bad formats are 422', () => {
    const { put, refuse } = setup();
    expect(refuse({ entity_identifier_kind: 'vat_eu', entity_identifier_value: 'DE123456789' })).toContain(
      'vat_country',
    );
    expect(
      refuse({ entity_identifier_kind: 'vat_eu', entity_identifier_value: 'X1', vat_country: 'US' }),
    ).toContain('vat_country');
    expect(refuse({ entity_identifier_kind: 'tax_id', entity_identifier_value: '1' })).toContain(
      'entity_identifier_kind',
    );
    expect(refuse({ entity_identifier_kind: 'gln', entity_identifier_value: '12' })).toContain(
      'entity_identifier_value',
    );
    expect(refuse({ entity_identifier_kind: 'duns', entity_identifier_value: '12345678' })).toContain(
      'entity_identifier_value',
    );
    expect(
      identifierOf(
        put({
          entity_identifier_kind: 'vat_eu',
          entity_identifier_value: ' de123456789 ',
          vat_country: 'de',
        }),
      ),
    ).toEqual({ kind: 'vat_eu', value: 'DE123456789', vatNumber: 'DE123456789', vatCountry: 'DE' });
  });

  it('rule 3: a value alone is company_reg without vat_country, and 422 naming the kind with one', () => {
    const { put, refuse } = setup();
    expect(identifierOf(put({ entity_identifier_value: 'abc-1' }))).toMatchObject({
      kind: 'company_reg',
      value: 'ABC-1',
    });
    expect(refuse({ entity_identifier_value: 'abc-2', vat_country: 'FR' })).toContain(
      'entity_identifier_kind',
    );
  });

  it('rule 4: a blank value, or a blank or null vat_number, clears the identifier and the country', () => {
    const { put } = setup();
    put({ entity_identifier_kind: 'vat_eu', entity_identifier_value: 'FR1', vat_country: 'FR' });
    expect(identifierOf(put({ entity_identifier_kind: 'vat_eu', entity_identifier_value: '' }))).toEqual({
      kind: null,
      value: null,
      vatNumber: null,
      vatCountry: null,
    });
    put({ entity_identifier_kind: 'gln', entity_identifier_value: '1234567890123' });
    expect(identifierOf(put({ vat_number: null }))).toMatchObject({ kind: null, vatNumber: null });
    put({ entity_identifier_kind: 'gln', entity_identifier_value: '1234567890123' });
    expect(identifierOf(put({ vat_number: '  ' }))).toMatchObject({ kind: null, vatNumber: null });
  });

  it('rule 5: without identifier fields the kind derives from vat_country', () => {
    const { put } = setup();
    expect(identifierOf(put({ vat_number: 'it123', vat_country: 'IT' }))).toMatchObject({
      kind: 'vat_eu',
      value: 'IT123',
    });
    expect(identifierOf(put({ vat_number: 'gb999', vat_country: 'GB' }))).toMatchObject({ kind: 'vat_eu' });
    expect(identifierOf(put({ vat_number: 'ca1', vat_country: 'CA' }))).toMatchObject({
      kind: 'national_tax',
    });
    expect(identifierOf(put({ vat_number: 'zz1', vat_country: 'ZZ' }))).toMatchObject({
      kind: 'company_reg',
    });
  });

  it('rule 6: a customer response sent straight back changes nothing, including the mirrored vat_number of gln', () => {
    const { site, id, put } = setup();
    const body = put({ entity_identifier_kind: 'gln', entity_identifier_value: '1234567890123' });
    const customer = get(body, 'customer') as Record<string, unknown>;
    const again = site.ok('PUT', `/customers/${id}.json`, { customer });
    expect(identifierOf(again)).toEqual(identifierOf(body));
    expect(identifierOf(put({ entity_identifier_kind: '', entity_identifier_value: '' }))).toEqual(
      identifierOf(body),
    );
  });

  it('rule 7: identifier fields win over vat_number; a new vat_country next to the same pair is validated; vat_number alone re-derives', () => {
    const { put, refuse } = setup();
    expect(
      identifierOf(
        put({ entity_identifier_kind: 'duns', entity_identifier_value: '123456789', vat_number: 'IGNORED' }),
      ),
    ).toMatchObject({ kind: 'duns', vatNumber: '123456789' });
    expect(
      refuse({ entity_identifier_kind: 'vat_eu', entity_identifier_value: 'FR1', vat_country: 'CA' }),
    ).toContain('vat_country');
    expect(identifierOf(put({ vat_number: 'NEW1' }))).toMatchObject({ kind: 'company_reg', value: 'NEW1' });
  });

  it('rule 8: the response reports the identifier and repeats the value in vat_number', () => {
    const { put } = setup();
    const body = put({
      entity_identifier_kind: 'national_tax',
      entity_identifier_value: '123',
      vat_country: 'CA',
    });
    expect(identifierOf(body)).toEqual({
      kind: 'national_tax',
      value: '123',
      vatNumber: '123',
      vatCountry: 'CA',
    });
  });
});
