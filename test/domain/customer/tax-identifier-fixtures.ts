import {
  NO_TAX_IDENTIFIER,
  resolveTaxIdentifier,
  type TaxIdentifierState,
  type TaxIdentifierUpdate,
} from '../../../src/domain/customer/tax-identifier.js';

export const EMPTY = NO_TAX_IDENTIFIER;
export const VAT_DE: TaxIdentifierState = {
  kind: 'vat_eu',
  value: 'DE123456789',
  vatNumber: 'DE123456789',
  vatCountry: 'DE',
};
export const NATIONAL_CA: TaxIdentifierState = {
  kind: 'national_tax',
  value: '123456789RT0001',
  vatNumber: '123456789RT0001',
  vatCountry: 'CA',
};
export const COMPANY: TaxIdentifierState = {
  kind: 'company_reg',
  value: '732829320',
  vatNumber: '732829320',
  vatCountry: null,
};
export const GLN: TaxIdentifierState = {
  kind: 'gln',
  value: '4012345000009',
  vatNumber: '4012345000009',
  vatCountry: null,
};
export const DUNS: TaxIdentifierState = {
  kind: 'duns',
  value: '150483782',
  vatNumber: '150483782',
  vatCountry: null,
};
export const LEI: TaxIdentifierState = {
  kind: 'lei',
  value: '5493001KJTIIGC8Y1R12',
  vatNumber: '5493001KJTIIGC8Y1R12',
  vatCountry: null,
};

/** The stored state after the update, failing the test on a refusal. */
export function resolved(current: TaxIdentifierState, update: TaxIdentifierUpdate): TaxIdentifierState {
  const result = resolveTaxIdentifier(current, update);
  if (!result.ok) throw new Error(`unexpected refusal: ${result.error.field}: ${result.error.message}`);
  return result.value;
}

/** The refusal of the update, failing the test when it is accepted. */
export function refused(current: TaxIdentifierState, update: TaxIdentifierUpdate) {
  const result = resolveTaxIdentifier(current, update);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}
