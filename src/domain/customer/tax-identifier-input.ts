/**
 * Reading the tax identifier fields of a customer update: what was sent, and in which normal form.
 *
 * Each field reads as `undefined` (not sent), `null` (sent null or blank) or its normalized text. The
 * difference between "not sent" and "sent blank" carries meaning (rules 4 to 6 of `resolveTaxIdentifier`):
 * a `vat_number`, `vat_country` or identifier value sent blank clears what is stored, one not sent keeps
 * it, and a blank pair alone changes nothing.
 */
import { err, ok, type Result } from '../../kernel/result.js';
import type { DomainError } from '../errors.js';

/** The request fields a tax identifier error can name. */
export type TaxIdentifierField =
  | 'entity_identifier_kind'
  | 'entity_identifier_value'
  | 'vat_number'
  | 'vat_country';

/** Stable codes of the tax identifier errors. */
export type TaxIdentifierErrorCode =
  | 'tax_identifier_field_type'
  | 'entity_identifier_kind_unsupported'
  | 'entity_identifier_kind_required'
  | 'entity_identifier_value_required'
  | 'entity_identifier_value_format'
  | 'vat_country_required'
  | 'vat_country_not_allowed';

/** Why a tax identifier update is refused: a 422 whose body names the field. */
export interface TaxIdentifierError extends DomainError {
  /** Which rule refused the update. */
  readonly code: TaxIdentifierErrorCode;
  /** Always 422. */
  readonly status: 422;
  /** The request field at fault. */
  readonly field: TaxIdentifierField;
  /** What is wrong, for the error body. */
  readonly message: string;
}

/**
 * Builds a tax identifier error value.
 * @example taxIdentifierError('vat_country_required', 'vat_country', 'vat_country is required')
 */
export const taxIdentifierError = (
  code: TaxIdentifierErrorCode,
  field: TaxIdentifierField,
  message: string,
): TaxIdentifierError => ({ code, status: 422, field, message });

/**
 * The tax identifier fields of a customer update, as the request sent them. An absent property means
 * "not sent"; `null` or a blank string means "sent blank". Values are untrusted and checked on use.
 */
export interface TaxIdentifierUpdate {
  /** `entity_identifier_kind` as sent. */
  readonly entityIdentifierKind?: unknown;
  /** `entity_identifier_value` as sent. */
  readonly entityIdentifierValue?: unknown;
  /** `vat_number` as sent. */
  readonly vatNumber?: unknown;
  /** `vat_country` as sent. */
  readonly vatCountry?: unknown;
}

/** A field as read: not sent, sent blank, or its normalized text. */
export type SentText = string | null | undefined;

/** The four fields, read and normalized. */
export interface ReadUpdate {
  readonly kind: SentText;
  readonly value: SentText;
  readonly vatNumber: SentText;
  readonly vatCountry: SentText;
}

/** How a field's text is read: normalized, and whether a JSON number stands for its digits. */
interface FieldReader {
  readonly normalize: (text: string) => string;
  /** Identifier numbers (a DUNS, a GLN) may arrive as JSON numbers; kinds and countries may not. */
  readonly acceptsWholeNumber: boolean;
}

const KIND: FieldReader = { normalize: (text) => text.toLowerCase(), acceptsWholeNumber: false };
const IDENTIFIER: FieldReader = { normalize: (text) => text.toUpperCase(), acceptsWholeNumber: true };
const COUNTRY: FieldReader = { normalize: (text) => text.toUpperCase(), acceptsWholeNumber: false };

/** Reads one field: strings are trimmed and normalized, and a blank one reads as null; other types are refused. */
function readText(
  raw: unknown,
  field: TaxIdentifierField,
  reader: FieldReader,
): Result<SentText, TaxIdentifierError> {
  if (raw === undefined) return ok(undefined);
  if (raw === null) return ok(null);
  if (reader.acceptsWholeNumber && typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) {
    return ok(String(raw));
  }
  if (typeof raw !== 'string') {
    return err(taxIdentifierError('tax_identifier_field_type', field, `${field} must be a string`));
  }
  const trimmed = raw.trim();
  return ok(trimmed.length === 0 ? null : reader.normalize(trimmed));
}

/**
 * Reads and normalizes the four fields: values and vat_number trimmed and upper-cased, vat_country
 * upper-cased, the kind lower-cased.
 * @example readUpdate({ entityIdentifierValue: ' de123 ', vatCountry: '' }).value
 * // { kind: undefined, value: 'DE123', vatNumber: undefined, vatCountry: null }
 */
export function readUpdate(update: TaxIdentifierUpdate): Result<ReadUpdate, TaxIdentifierError> {
  const kind = readText(update.entityIdentifierKind, 'entity_identifier_kind', KIND);
  if (!kind.ok) return kind;
  const value = readText(update.entityIdentifierValue, 'entity_identifier_value', IDENTIFIER);
  if (!value.ok) return value;
  const vatNumber = readText(update.vatNumber, 'vat_number', IDENTIFIER);
  if (!vatNumber.ok) return vatNumber;
  const vatCountry = readText(update.vatCountry, 'vat_country', COUNTRY);
  if (!vatCountry.ok) return vatCountry;
  return ok({
    kind: kind.value,
    value: value.value,
    vatNumber: vatNumber.value,
    vatCountry: vatCountry.value,
  });
}

/** The tax identifier fields of a decoded `customer` request object (or of a customer response). */
export type TaxIdentifierRequestFields = { readonly [wireName in TaxIdentifierField]?: unknown };

/** The wire names of the four fields. */
const WIRE_FIELDS = [
  ['entity_identifier_kind', 'entityIdentifierKind'],
  ['entity_identifier_value', 'entityIdentifierValue'],
  ['vat_number', 'vatNumber'],
  ['vat_country', 'vatCountry'],
] as const;

/**
 * Picks the tax identifier fields out of a decoded `customer` request object, keeping "not sent" apart
 * from "sent null": only own properties that are present become fields of the update.
 * @example readTaxIdentifierUpdate({ vat_number: null, email: 'a@b.c' }) // { vatNumber: null }
 */
export function readTaxIdentifierUpdate(body: TaxIdentifierRequestFields): TaxIdentifierUpdate {
  const update: Record<string, unknown> = {};
  for (const [wireName, name] of WIRE_FIELDS) {
    if (Object.hasOwn(body, wireName) && body[wireName] !== undefined) update[name] = body[wireName];
  }
  return update;
}
