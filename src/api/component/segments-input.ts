/**
 * Segment requests: the create and update bodies (one segment, or the items of a bulk request), and how a
 * segment is built or repriced from them. Nothing is written here; a bulk request builds every record
 * first and writes only when all of them pass.
 */

import type {
  Component,
  ComponentPricePoint,
  Segment,
  SegmentValue,
  SegmentValues,
} from '../../domain/catalog/component.js';
import { fillStarts, segmentKey, segmentValuesProblem } from '../../domain/catalog/component-rules.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { z, zId, zText } from '../decode.js';
import {
  type FieldProblem,
  priceList,
  problem,
  toBracketInput,
  withIds,
  zPrice,
  zScheme,
} from './price-points-input.js';

const MAX_PRICES = 100;
const zValue = () => z.union([zText(), z.number(), z.boolean()]).nullish();
const zPrices = () => z.array(zPrice()).max(MAX_PRICES, `can hold at most ${MAX_PRICES} prices`);

/** One segment to create (`CreateSegment`). */
export const segmentCreateSchema = z.object({
  segment_property_1_value: zValue(),
  segment_property_2_value: zValue(),
  segment_property_3_value: zValue(),
  segment_property_4_value: zValue(),
  pricing_scheme: zScheme(),
  prices: zPrices().optional(),
});

/** New pricing for a segment (`UpdateSegment`). */
export const segmentUpdateSchema = z.object({
  pricing_scheme: zScheme(),
  prices: zPrices().optional(),
});

/** One item of a bulk update (`BulkUpdateSegmentsItem`). */
export const bulkUpdateItemSchema = z.object({ id: zId(), pricing_scheme: zScheme(), prices: zPrices() });

export type SegmentCreateInput = z.output<typeof segmentCreateSchema>;
export type SegmentUpdateInput = z.output<typeof segmentUpdateSchema>;

/** Where segments live: an event-based component's price point. */
export interface SegmentOwner {
  readonly component: Component;
  readonly point: ComponentPricePoint;
  /** The metric of the component (event-based components always name one). */
  readonly metricId: number;
}

const slotValue = (value: SegmentValue | null | undefined): SegmentValue | null => value ?? null;

/** A segment's prices: the scheme's price list (a per_unit segment takes one price), with ids. */
function segmentPrices(
  tx: Transaction,
  scheme: SegmentUpdateInput['pricing_scheme'],
  prices: SegmentUpdateInput['prices'],
  current: Segment['prices'] | undefined,
): Result<Segment['prices'], FieldProblem> {
  const brackets = prices === undefined ? current : fillStarts(prices.map(toBracketInput));
  const list = priceList(scheme, brackets, undefined);
  if (!list.ok)
    return err(problem(list.error.field === 'unit_price' ? 'prices' : list.error.field, list.error.message));
  return ok(withIds(tx, list.value));
}

/**
 * Builds a new segment (without its id). `taken` holds the keys of segments built earlier in the same
 * request, so a bulk request cannot repeat a combination either.
 */
export function buildSegment(
  tx: Transaction,
  owner: SegmentOwner,
  input: SegmentCreateInput,
  taken: ReadonlySet<string>,
): Result<Omit<Segment, 'id'>, FieldProblem> {
  const values: SegmentValues = [
    slotValue(input.segment_property_1_value),
    slotValue(input.segment_property_2_value),
    slotValue(input.segment_property_3_value),
    slotValue(input.segment_property_4_value),
  ];
  const valuesProblem = segmentValuesProblem(values);
  if (valuesProblem) return err(valuesProblem);
  const key = segmentKey(owner.point.id, values);
  if (indexGet(tx.state.indexes.segmentKeys, key) !== undefined || taken.has(key))
    return err(
      problem(
        'segment_property_1_value',
        'this combination of segment property values already has a segment',
      ),
    );
  const prices = segmentPrices(tx, input.pricing_scheme, input.prices, undefined);
  if (!prices.ok) return prices;
  return ok({
    componentId: owner.component.id,
    pricePointId: owner.point.id,
    eventBasedBillingMetricId: owner.metricId,
    values,
    pricingScheme: input.pricing_scheme,
    prices: prices.value,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
}

/** A segment with new pricing; prices not sent are kept (and must suit the new scheme). */
export function repriceSegment(
  tx: Transaction,
  segment: Segment,
  input: SegmentUpdateInput,
): Result<Segment, FieldProblem> {
  const prices = segmentPrices(tx, input.pricing_scheme, input.prices, segment.prices);
  if (!prices.ok) return prices;
  return ok({ ...segment, pricingScheme: input.pricing_scheme, prices: prices.value, updatedAt: tx.now });
}

/** The key of a built segment, to remember in `taken`. */
export const keyOf = (segment: Pick<Segment, 'pricePointId' | 'values'>): string =>
  segmentKey(segment.pricePointId, segment.values);
