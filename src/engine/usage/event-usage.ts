/**
 * The `eventUsage` rows and what they bill. A subscription uses the event-based components of its
 * product's family; each (subscription, component) pair keeps one row of the current period's usage.
 * A renewal bills the period that ends (per segment where the price point has a segment for the events'
 * property values, else at the price point) and deletes the row, so the next period starts from nothing.
 */

import type { BillingPeriod } from '../../domain/allocation/proration.js';
import type { Component, SegmentValues } from '../../domain/catalog/component.js';
import { segmentKey } from '../../domain/catalog/component-rules.js';
import {
  accumulatorOf,
  aggregateOf,
  EMPTY_AGGREGATE,
  type EventUsage,
  quantityOf,
  type UsageAggregate,
} from '../../domain/event-log/usage.js';
import type { SiteMetric } from '../../domain/site/config.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { indexGet } from '../../kernel/collection.js';
import { add, type Dec, isPositive, max as maxDec } from '../../kernel/money.js';
import { addSeconds, calendarDateOf, type Instant } from '../../kernel/time.js';
import { costOf, findRow, pricingOf, type RowPricing } from '../allocation/rows.js';
import type { ChargeLine } from '../invoice/drafts.js';
import type { Transaction } from '../transaction.js';

/** An event-based component a subscription uses, with its metric. */
export interface MeteredByEvents {
  readonly component: Component;
  readonly metric: SiteMetric;
}

/** The live event-based components of a subscription's product family, with their metrics, by id. */
export function eventComponentsOf(tx: Transaction, subscription: Subscription): MeteredByEvents[] {
  const familyId = tx.get('products', subscription.productId)?.productFamilyId;
  // A component bills events through a site metric: with none, every renewal would read the whole
  // catalog (a thousand rows for a site of a thousand components) to find nothing.
  if (familyId === undefined || tx.settings.metrics.length === 0) return [];
  const found: MeteredByEvents[] = [];
  for (const component of tx.rows('components')) {
    if (component.kind !== 'event_based_component' || component.productFamilyId !== familyId) continue;
    if (component.archivedAt !== null) continue;
    const metric = tx.settings.metrics.find((each) => each.id === component.eventBasedBillingMetricId);
    if (metric !== undefined) found.push({ component, metric });
  }
  return found;
}

/** A subscription's usage row of a component, as the transaction sees it. */
export function usageRowOf(
  tx: Transaction,
  subscriptionId: number,
  componentId: number,
): EventUsage | undefined {
  const id = indexGet(tx.state.indexes.eventUsageKeys, `${subscriptionId}/${componentId}`);
  return id === undefined ? undefined : tx.get('eventUsage', id);
}

/** Merges aggregates (the unsegmented remainder of a period). */
function merge(aggregates: readonly UsageAggregate[]): UsageAggregate {
  const merged = accumulatorOf(EMPTY_AGGREGATE);
  for (const each of aggregates) {
    merged.count += each.count;
    merged.sum = add(merged.sum, each.sum);
    if (each.max !== null) merged.max = merged.max === null ? each.max : maxDec(merged.max, each.max);
    for (const value of each.uniqueValues) merged.uniques.add(value);
  }
  return aggregateOf(merged);
}

interface Priced {
  readonly label: string | null;
  readonly pricing: RowPricing | undefined;
  readonly pricePointId: number;
  readonly quantity: Dec;
}

/** What a row's usage bills: one part per matched segment, and the rest at the price point. */
function pricedParts(
  tx: Transaction,
  subscription: Subscription,
  usage: EventUsage,
  metric: SiteMetric,
): Priced[] {
  const held = findRow(tx, subscription.id, usage.componentId);
  const component = tx.get('components', usage.componentId);
  const pricePointId = held?.pricePointId ?? component?.defaultPricePointId ?? 0;
  const ownPricing = pricingOf(tx, { pricePointId, customPrice: held?.customPrice ?? null });
  if (usage.bySegment.length === 0)
    return [
      { label: null, pricing: ownPricing, pricePointId, quantity: quantityOf(usage, metric.aggregation) },
    ];
  const parts: Priced[] = [];
  const unmatched: UsageAggregate[] = [];
  for (const bucket of usage.bySegment) {
    const segmentId = indexGet(tx.state.indexes.segmentKeys, segmentKey(pricePointId, bucket.values));
    const segment = segmentId === undefined ? undefined : tx.get('segments', segmentId);
    if (segment === undefined) {
      unmatched.push(bucket);
      continue;
    }
    parts.push({
      label: segmentLabel(bucket.values),
      pricing: { scheme: segment.pricingScheme, prices: segment.prices },
      pricePointId,
      quantity: quantityOf(bucket, metric.aggregation),
    });
  }
  if (unmatched.length > 0)
    parts.push({
      label: null,
      pricing: ownPricing,
      pricePointId,
      quantity: quantityOf(merge(unmatched), metric.aggregation),
    });
  return parts;
}

const segmentLabel = (values: SegmentValues): string =>
  values
    .filter((value) => value !== null)
    .map(String)
    .join(', ');

/**
 * The event-based lines of the period that ends at `period.start`, and the reset of the usage rows.
 * Call it once per renewal, inside the transaction that bills the period (componentRenewalCharges does).
 * @example const lines = eventBasedRenewalCharges(tx, subscription, { start, end });
 */
export function eventBasedRenewalCharges(
  tx: Transaction,
  subscription: Subscription,
  period: BillingPeriod,
): ChargeLine[] {
  const lines: ChargeLine[] = [];
  for (const { component, metric } of eventComponentsOf(tx, subscription)) {
    const usage = usageRowOf(tx, subscription.id, component.id);
    if (usage === undefined || usage.periodStart >= period.start) continue;
    for (const part of pricedParts(tx, subscription, usage, metric)) {
      if (!isPositive(part.quantity)) continue;
      lines.push(usageLine(tx, component, part, usage.periodStart, period.start));
    }
    tx.remove('eventUsage', usage.id);
  }
  return lines;
}

function usageLine(
  tx: Transaction,
  component: Component,
  part: Priced,
  start: Instant,
  end: Instant,
): ChargeLine {
  const zone = tx.settings.timeZone;
  const cost = costOf(part.pricing, part.quantity);
  const first = calendarDateOf(start, zone);
  const last = calendarDateOf(addSeconds(end, -1), zone);
  return {
    title: part.label === null ? component.name : `${component.name} (${part.label})`,
    description: `${first} - ${last}`,
    quantity: part.quantity,
    unitPrice: cost.unitPrice,
    amount: cost.amount,
    tieredUnitPrice: cost.tiered,
    taxable: component.taxable,
    taxCode: component.taxCode,
    kind: component.kind,
    componentId: component.id,
    pricePointId: part.pricePointId,
    periodRangeStart: first,
    periodRangeEnd: last,
  };
}
