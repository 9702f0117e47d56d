/**
 * The rules of components, price points and segments that do not depend on the wire: which price lists a
 * pricing scheme accepts, the tax code rule of the new catalog experience, and what makes segment
 * property values valid and unique.
 */
import { add, type Dec } from '../../kernel/money.js';
import { err, type Result } from '../../kernel/result.js';
import { type DomainError, invalid } from '../errors.js';
import { validateBrackets } from '../pricing/brackets.js';
import { type PriceBracket, type PricingError, type PricingScheme, pricingError } from '../pricing/types.js';
import type { ComponentKind, SegmentValue, SegmentValues } from './component.js';

/**
 * The price list a price point keeps for its scheme. per_unit takes one price: `unitPrice` when given
 * (as the bracket `1–∞`), else the only bracket of `prices`. The other schemes take brackets, checked by
 * `validateBrackets` (contiguous, whole, the first from 0 or 1, only the last open-ended, no negative).
 * @example resolvePriceList('per_unit', undefined, '2.5') // ok([{ startingQuantity: '1', endingQuantity: null, unitPrice: '2.5' }])
 * @example resolvePriceList('tiered', [], undefined).ok // false (prices_missing)
 */
export function resolvePriceList(
  scheme: PricingScheme,
  prices: readonly PriceBracket[] | undefined,
  unitPrice: Dec | undefined,
): Result<readonly PriceBracket[], PricingError> {
  if (scheme === 'per_unit') {
    if (unitPrice !== undefined) {
      return validateBrackets([{ startingQuantity: '1', endingQuantity: null, unitPrice }]);
    }
    const [only, ...others] = prices ?? [];
    if (only === undefined)
      return err(pricingError('prices_missing', 'unit_price', 'a per_unit price needs a unit price'));
    if (others.length > 0) {
      return err(
        pricingError('per_unit_price_ambiguous', 'prices', 'a per_unit price takes one price, not brackets'),
      );
    }
    return validateBrackets([only]);
  }
  return validateBrackets(prices ?? []);
}

/**
 * Fills the starting quantities a segment request may leave out: the first bracket starts at 1, each
 * later one right after the previous one ends. Brackets that say where they start are left alone.
 * @example fillStarts([{ endingQuantity: '10', unitPrice: '1' }, { endingQuantity: null, unitPrice: '0.5' }])
 * // [{ startingQuantity: '1', ... }, { startingQuantity: '11', ... }]
 */
export function fillStarts(
  prices: readonly {
    readonly startingQuantity?: Dec | undefined;
    readonly endingQuantity: Dec | null;
    readonly unitPrice: Dec;
  }[],
): PriceBracket[] {
  const filled: PriceBracket[] = [];
  for (const price of prices) {
    const previous = filled[filled.length - 1];
    const start =
      price.startingQuantity ??
      (previous === undefined
        ? '1'
        : previous.endingQuantity === null
          ? '0'
          : add(previous.endingQuantity, '1'));
    filled.push({
      startingQuantity: start,
      endingQuantity: price.endingQuantity,
      unitPrice: price.unitPrice,
    });
  }
  return filled;
}

/**
 * A tax code as stored: trimmed, and null when blank or absent.
 * @example normalizeTaxCode('  ') // null
 */
export const normalizeTaxCode = (taxCode: string | null | undefined): string | null => {
  const trimmed = taxCode?.trim() ?? '';
  return trimmed.length === 0 ? null : trimmed;
};

/**
 * With the new catalog experience, a taxable component must carry a non-blank tax code.
 * @example taxCodeProblem(true, true, null)?.status // 422
 * @example taxCodeProblem(false, true, null) // undefined
 */
export function taxCodeProblem(
  newCatalogExperience: boolean,
  taxable: boolean,
  taxCode: string | null,
): DomainError | undefined {
  if (!newCatalogExperience || !taxable || normalizeTaxCode(taxCode) !== null) return undefined;
  return invalid('tax_code_blank', 'Tax code: cannot be blank for a taxable component.', 'tax_code');
}

/**
 * The unit name a kind gets when none is sent (on/off components need none).
 * @example defaultUnitName('on_off_component') // 'on/off'
 */
export const defaultUnitName = (kind: ComponentKind): string | undefined =>
  kind === 'on_off_component' ? 'on/off' : undefined;

/**
 * Whether allocations of a kind renew with each billing period (quantity-based and on/off) rather than
 * being usage of one period (metered, event-based) or a prepaid purchase.
 * @example isRecurringKind('metered_component') // false
 */
export const isRecurringKind = (kind: ComponentKind): boolean =>
  kind === 'quantity_based_component' || kind === 'on_off_component';

/** Why segment property values are not acceptable, naming the field at fault. */
export interface SegmentValuesProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * Segment property values fill the slots from the first: at least the first is given, and a later slot
 * only after every earlier one. Text values may not be blank.
 * @example segmentValuesProblem(['EU', null, null, null]) // undefined
 * @example segmentValuesProblem([null, 'x', null, null])?.field // 'segment_property_1_value'
 */
export function segmentValuesProblem(values: SegmentValues): SegmentValuesProblem | undefined {
  for (const [index, value] of values.entries()) {
    const field = `segment_property_${index + 1}_value`;
    if (typeof value === 'string' && value.trim().length === 0) return { field, message: 'cannot be blank' };
    if (value !== null) continue;
    const later = values.slice(index + 1).findIndex((next) => next !== null);
    if (later >= 0)
      return { field, message: `is required when segment_property_${index + 2 + later}_value is given` };
    if (index === 0) return { field, message: 'is required' };
  }
  return undefined;
}

/**
 * The key that makes a segment unique within its price point: the values with their types, so the
 * text `"1"`, the number `1` and the boolean `true` are different values.
 * @example segmentKey(7, ['EU', 1, null, null]) // '7/["EU",1,null,null]'
 */
export const segmentKey = (pricePointId: number, values: SegmentValues): string =>
  `${pricePointId}/${JSON.stringify(values)}`;

/**
 * Whether a segment matches a filter value given as text (a query string): by the value's text form.
 * @example segmentValueMatches(true, 'true') // true
 */
export const segmentValueMatches = (value: SegmentValue | null, text: string): boolean =>
  value !== null && String(value) === text;

/** Bulk limits, as in the official API: records per bulk create and per bulk update of segments. */
export const SEGMENT_BULK_CREATE_LIMIT = 2000;
/** The most segments one bulk update changes. */
export const SEGMENT_BULK_UPDATE_LIMIT = 1000;

/**
 * Checks that a component may hold segments: only event-based components are priced by segments.
 * @example segmentableProblem('quantity_based_component')?.status // 422
 */
export function segmentableProblem(kind: ComponentKind): DomainError | undefined {
  return kind === 'event_based_component'
    ? undefined
    : invalid(
        'not_segmentable',
        'Segments belong to an event-based component whose metric segments its events.',
        'price_point',
      );
}

/**
 * A pricing error as text, with the position of the bracket at fault when there is one.
 * @example pricingMessage(pricingError('price_negative', 'prices', 'a unit price cannot be negative', 1))
 * // 'a unit price cannot be negative (price 2)'
 */
export const pricingMessage = (error: PricingError): string =>
  error.index === undefined ? error.message : `${error.message} (price ${error.index + 1})`;
