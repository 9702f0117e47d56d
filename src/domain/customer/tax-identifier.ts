/**
 * Customer tax identifier resolution, as one pure function from the stored identifier and the fields an
 * update sent to the identifier to store. Its rules are numbered 1 to 8 as the comments below cite them.
 *
 * A customer holds either no identifier (all four fields null) or one identifier: a kind, its value, the
 * same value mirrored in `vat_number` (rule 8) and the `vat_country` that qualifies it. A country is only
 * kept together with an identifier. Two ways in:
 * - the entity identifier pair (`entity_identifier_kind`, `entity_identifier_value`), which takes
 *   precedence over `vat_number` whenever it carries anything (rule 7);
 * - the legacy `vat_number` (with `vat_country`), whose kind derives from the country (rule 5).
 */
import { err, ok, type Result } from '../../kernel/result.js';
import {
  type ReadUpdate,
  readUpdate,
  type TaxIdentifierError,
  type TaxIdentifierUpdate,
  taxIdentifierError,
} from './tax-identifier-input.js';
import {
  countryProblem,
  ENTITY_IDENTIFIER_KINDS,
  type EntityIdentifierKind,
  formatProblem,
  isEntityIdentifierKind,
  kindForVatCountry,
} from './tax-identifier-kinds.js';

/** The stored tax identifier of a customer. All null, or a kind with its value mirrored in `vatNumber`. */
export interface TaxIdentifierState {
  /** The identifier's kind, or null for none. */
  readonly kind: EntityIdentifierKind | null;
  /** Its value, or null. */
  readonly value: string | null;
  /** The same value, as `vat_number` shows it, or null. */
  readonly vatNumber: string | null;
  /** The country that qualifies it, or null. */
  readonly vatCountry: string | null;
}

/** A customer without a tax identifier. */
export const NO_TAX_IDENTIFIER: TaxIdentifierState = {
  kind: null,
  value: null,
  vatNumber: null,
  vatCountry: null,
};

/** The tax identifier fields of a customer response. */
export interface TaxIdentifierWire {
  readonly entity_identifier_kind: EntityIdentifierKind | null;
  readonly entity_identifier_value: string | null;
  readonly vat_number: string | null;
  readonly vat_country: string | null;
}

/**
 * Applies the tax identifier fields of a customer update to the stored identifier. Returns the
 * very same `current` object when the update changes nothing, so a caller can tell a no-op by identity.
 * Refusals are 422 error values naming the field.
 * @example
 * resolveTaxIdentifier(NO_TAX_IDENTIFIER, { entityIdentifierKind: 'vat_eu', entityIdentifierValue: ' de123 ', vatCountry: 'de' })
 * // ok({ kind: 'vat_eu', value: 'DE123', vatNumber: 'DE123', vatCountry: 'DE' })
 * resolveTaxIdentifier(NO_TAX_IDENTIFIER, { vatNumber: '123', vatCountry: 'CA' })
 * // ok({ kind: 'national_tax', value: '123', vatNumber: '123', vatCountry: 'CA' })
 * resolveTaxIdentifier(NO_TAX_IDENTIFIER, { entityIdentifierKind: 'gln', entityIdentifierValue: '12' })
 * // err({ code: 'entity_identifier_value_format', status: 422, field: 'entity_identifier_value', ... })
 */
export function resolveTaxIdentifier(
  current: TaxIdentifierState,
  update: TaxIdentifierUpdate,
): Result<TaxIdentifierState, TaxIdentifierError> {
  const read = readUpdate(update);
  if (!read.ok) return read;
  const sent = read.value;
  // A country sent blank removes it; one not sent stays as stored.
  const country = sent.vatCountry === undefined ? current.vatCountry : sent.vatCountry;
  // Rule 6: a blank pair (what a customer without identifier answers) is no change, so only a pair that
  // carries something is an entity identifier edit; anything else falls to the legacy fields.
  const pairCarriesSomething = (sent.kind ?? null) !== null || (sent.value ?? null) !== null;
  return pairCarriesSomething
    ? resolveEntityPair(current, sent, country)
    : resolveVatNumber(current, sent, country);
}

/** Rules 1–4, 6 and 7: the pair decides; `vat_number` is ignored. */
function resolveEntityPair(
  current: TaxIdentifierState,
  sent: ReadUpdate,
  country: string | null,
): Result<TaxIdentifierState, TaxIdentifierError> {
  const kind = kindOfPair(sent.kind, country);
  if (!kind.ok) return kind;
  if (sent.value === undefined) {
    return err(
      taxIdentifierError(
        'entity_identifier_value_required',
        'entity_identifier_value',
        'entity_identifier_value must be sent together with entity_identifier_kind',
      ),
    );
  }
  // Rule 4: a supported kind with a blank value clears the identifier, vat_number and vat_country.
  if (sent.value === null) return ok(isEmpty(current) ? current : NO_TAX_IDENTIFIER);
  const value = sent.value;
  // Rule 6: the stored pair sent back with an unchanged country is no change (whatever vat_number says).
  if (kind.value === current.kind && value === current.value && country === current.vatCountry)
    return ok(current);
  const checked = checkIdentifier(kind.value, value, country);
  if (!checked.ok) return checked;
  return ok(identifier(kind.value, value, country));
}

/** The kind a non-blank pair names: the one sent, or `company_reg` for a value sent alone (rule 3). */
function kindOfPair(
  sentKind: string | null | undefined,
  country: string | null,
): Result<EntityIdentifierKind, TaxIdentifierError> {
  if (sentKind === undefined || sentKind === null) {
    if (country === null) return ok('company_reg');
    return err(
      taxIdentifierError(
        'entity_identifier_kind_required',
        'entity_identifier_kind',
        'entity_identifier_kind is required when vat_country is present',
      ),
    );
  }
  if (isEntityIdentifierKind(sentKind)) return ok(sentKind);
  return err(
    taxIdentifierError(
      'entity_identifier_kind_unsupported',
      'entity_identifier_kind',
      `entity_identifier_kind must be one of ${ENTITY_IDENTIFIER_KINDS.join(', ')}`,
    ),
  );
}

/** Rule 2: the country a kind requires, and the format of gln, duns and lei values. */
function checkIdentifier(
  kind: EntityIdentifierKind,
  value: string,
  country: string | null,
): Result<true, TaxIdentifierError> {
  const countryIssue = countryProblem(kind, country);
  if (countryIssue === 'missing') {
    return err(
      taxIdentifierError('vat_country_required', 'vat_country', `vat_country is required for ${kind}`),
    );
  }
  if (countryIssue === 'not_allowed') {
    const expected = kind === 'vat_eu' ? 'an EU member state code or GB' : 'a national tax country code';
    return err(
      taxIdentifierError(
        'vat_country_not_allowed',
        'vat_country',
        `vat_country must be ${expected} for ${kind}`,
      ),
    );
  }
  const expectedFormat = formatProblem(kind, value);
  if (expectedFormat !== undefined) {
    return err(
      taxIdentifierError(
        'entity_identifier_value_format',
        'entity_identifier_value',
        `entity_identifier_value must be ${expectedFormat} for ${kind}`,
      ),
    );
  }
  return ok(true);
}

/** Rules 4, 5, 6 and 7 for the legacy `vat_number` and `vat_country`. These never fail. */
function resolveVatNumber(
  current: TaxIdentifierState,
  sent: ReadUpdate,
  country: string | null,
): Result<TaxIdentifierState, TaxIdentifierError> {
  if (sent.vatNumber === undefined && sent.vatCountry === undefined) return ok(current);
  const vatNumber = sent.vatNumber === undefined ? current.vatNumber : sent.vatNumber;
  // Rule 4: a null or blank vat_number clears; a country alone, with no number to qualify, is not kept.
  if (vatNumber === null) return ok(isEmpty(current) ? current : NO_TAX_IDENTIFIER);
  // Rule 6: the mirrored vat_number sent back with an unchanged country is no change, so a gln, duns or
  // lei customer keeps its kind.
  if (vatNumber === current.vatNumber && country === current.vatCountry) return ok(current);
  // Rules 5 and 7: a changed number or country derives the kind from the country.
  return ok(identifier(kindForVatCountry(country), vatNumber, country));
}

/** Rule 8: the value is repeated in vat_number. */
const identifier = (
  kind: EntityIdentifierKind,
  value: string,
  vatCountry: string | null,
): TaxIdentifierState => ({
  kind,
  value,
  vatNumber: value,
  vatCountry,
});

const isEmpty = (state: TaxIdentifierState): boolean =>
  state.kind === null && state.value === null && state.vatNumber === null && state.vatCountry === null;

/**
 * The tax identifier fields of a customer response: the identifier in `entity_identifier_kind` and
 * `entity_identifier_value`, the value repeated in `vat_number` (rule 8).
 * @example
 * presentTaxIdentifier({ kind: 'gln', value: '4012345000009', vatNumber: '4012345000009', vatCountry: null })
 * // { entity_identifier_kind: 'gln', entity_identifier_value: '4012345000009', vat_number: '4012345000009', vat_country: null }
 */
export function presentTaxIdentifier(state: TaxIdentifierState): TaxIdentifierWire {
  return {
    entity_identifier_kind: state.kind,
    entity_identifier_value: state.value,
    vat_number: state.kind === null ? state.vatNumber : state.value,
    vat_country: state.vatCountry,
  };
}

export {
  readTaxIdentifierUpdate,
  type TaxIdentifierError,
  type TaxIdentifierErrorCode,
  type TaxIdentifierField,
  type TaxIdentifierRequestFields,
  type TaxIdentifierUpdate,
} from './tax-identifier-input.js';
export {
  ENTITY_IDENTIFIER_KINDS,
  type EntityIdentifierKind,
  EU_VAT_COUNTRIES,
  isEntityIdentifierKind,
  kindForVatCountry,
  NATIONAL_TAX_COUNTRIES,
} from './tax-identifier-kinds.js';
