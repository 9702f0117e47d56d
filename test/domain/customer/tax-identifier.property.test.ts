import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  NO_TAX_IDENTIFIER,
  presentTaxIdentifier,
  readTaxIdentifierUpdate,
  resolveTaxIdentifier,
  type TaxIdentifierState,
  type TaxIdentifierUpdate,
} from '../../../src/domain/customer/tax-identifier.js';
import { countryProblem } from '../../../src/domain/customer/tax-identifier-kinds.js';

const digits = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const alphanumeric = fc.string({
  unit: fc.constantFrom(...'0123456789ABCDEFXYZabcxyz'),
  minLength: 1,
  maxLength: 18,
});
const leiValue = fc.tuple(
  fc.string({ unit: fc.constantFrom(...'0123456789ABCZ'), minLength: 18, maxLength: 18 }),
  digits(2),
);

/** Identifier texts: well-formed for gln, duns and lei, free-form, padded, blank and null. */
const identifierText: fc.Arbitrary<unknown> = fc.oneof(
  digits(13),
  digits(9),
  leiValue.map(([head, tail]) => `${head}${tail}`.toLowerCase()),
  alphanumeric,
  alphanumeric.map((text) => `  ${text} `),
  fc.integer({ min: 0, max: 999_999_999 }),
  fc.constantFrom('', '  ', null),
);

const kindText: fc.Arbitrary<unknown> = fc.constantFrom(
  'vat_eu',
  'national_tax',
  'company_reg',
  'gln',
  'duns',
  'lei',
  ' GLN ',
  'siren',
  '',
  null,
);

const countryText: fc.Arbitrary<unknown> = fc.constantFrom(
  'DE',
  'de',
  'FR',
  'GB',
  'EL',
  'CA',
  'ch',
  'US',
  'ZZ',
  '',
  null,
);

/** Any combination of the four fields, each sent or not. */
const updateArbitrary: fc.Arbitrary<TaxIdentifierUpdate> = fc.record(
  {
    entityIdentifierKind: kindText,
    entityIdentifierValue: identifierText,
    vatNumber: identifierText,
    vatCountry: countryText,
  },
  { requiredKeys: [] },
);

/** A state a customer can reach: a run of updates from no identifier, refused ones leaving it as it was. */
const reachableState: fc.Arbitrary<TaxIdentifierState> = fc
  .array(updateArbitrary, { maxLength: 8 })
  .map((updates) =>
    updates.reduce<TaxIdentifierState>((state, update) => {
      const result = resolveTaxIdentifier(state, update);
      return result.ok ? result.value : state;
    }, NO_TAX_IDENTIFIER),
  );

/** The shape every stored identifier keeps. */
function expectWellFormed(state: TaxIdentifierState): void {
  if (state.kind === null) {
    expect(state).toEqual(NO_TAX_IDENTIFIER);
    return;
  }
  expect(state.value).not.toBeNull();
  expect(state.vatNumber).toBe(state.value);
  expect(countryProblem(state.kind, state.vatCountry)).toBeUndefined();
}

describe('tax identifier laws', () => {
  test.prop([reachableState])('sending a customer response straight back is a no-op', (state) => {
    const update = readTaxIdentifierUpdate(presentTaxIdentifier(state));
    const result = resolveTaxIdentifier(state, update);
    expect(result.ok && result.value).toBe(state);
  });

  test.prop([reachableState, updateArbitrary])(
    'the result never holds a kind its country does not allow, and always mirrors the value',
    (state, update) => {
      const result = resolveTaxIdentifier(state, update);
      if (result.ok) expectWellFormed(result.value);
    },
  );

  test.prop([reachableState, updateArbitrary])(
    'applying the same update twice equals applying it once',
    (state, update) => {
      const once = resolveTaxIdentifier(state, update);
      fc.pre(once.ok);
      if (!once.ok) return;
      const twice = resolveTaxIdentifier(once.value, update);
      expect(twice).toEqual(once);
    },
  );

  test.prop([reachableState, updateArbitrary])(
    'a refusal names one of the four fields and is a 422',
    (state, update) => {
      const result = resolveTaxIdentifier(state, update);
      if (result.ok) return;
      expect(result.error.status).toBe(422);
      expect(['entity_identifier_kind', 'entity_identifier_value', 'vat_number', 'vat_country']).toContain(
        result.error.field,
      );
    },
  );
});
