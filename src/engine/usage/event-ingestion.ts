/**
 * Bulk ingestion of usage events into a stream: at most 1000 items, all or nothing.
 * Each item names its subscription in the `svc` object (or the site's `serviceName` object); every
 * metric on the stream folds the item into the usage rows of its event-based components on that
 * subscription for the current period. Events are not kept one by one: only the aggregates are.
 */

import type { SegmentValues } from '../../domain/catalog/component.js';
import type { DomainError } from '../../domain/errors.js';
import { invalid, notFound } from '../../domain/errors.js';
import {
  type Accumulator,
  accumulatorOf,
  addEvent,
  aggregateOf,
  EMPTY_AGGREGATE,
  type EventUsage,
  segmentValuesOf,
} from '../../domain/event-log/usage.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { parseTimestamp } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';
import { eventComponentsOf, type MeteredByEvents, usageRowOf } from './event-usage.js';

/** Items one bulk request may carry, as in the official API. */
export const MAX_BULK_EVENTS = 1000;

interface Pending {
  readonly base: EventUsage | undefined;
  readonly subscription: Subscription;
  readonly item: MeteredByEvents;
  readonly total: Accumulator;
  readonly segments: Map<string, { readonly values: SegmentValues; readonly accumulator: Accumulator }>;
}

const atIndex = (index: number, message: string): DomainError =>
  invalid('invalid_event', `events[${index}]: ${message}`, `events[${index}]`);

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The `svc` object of an item, own properties only: under the site's `serviceName`, `svc`, or `chargify`,
 * the key the official SDK sends (its `EBBEvent.chargify`) whatever the site calls itself.
 */
function serviceObject(tx: Transaction, item: Readonly<Record<string, unknown>>): unknown {
  for (const name of [tx.settings.serviceName, 'svc', 'chargify']) {
    if (Object.hasOwn(item, name)) return item[name];
  }
  return undefined;
}

const serviceKeys = (tx: Transaction): string =>
  [...new Set([tx.settings.serviceName, 'svc', 'chargify'])].join(' or ');

/** The subscription an item names, validated (its timestamp too). */
function itemSubscription(tx: Transaction, item: unknown, index: number): Result<Subscription, DomainError> {
  if (!isRecord(item)) return err(atIndex(index, 'must be an object'));
  const svc = serviceObject(tx, item);
  if (!isRecord(svc)) return err(atIndex(index, `must have a ${serviceKeys(tx)} object`));
  const id = Object.hasOwn(svc, 'subscription_id') ? svc['subscription_id'] : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
    return err(atIndex(index, 'subscription_id must be a positive integer'));
  if (Object.hasOwn(svc, 'timestamp') && svc['timestamp'] !== null) {
    if (!parseTimestamp(svc['timestamp'], tx.settings.timeZone).ok)
      return err(atIndex(index, 'timestamp must be a timestamp'));
  }
  const subscription = tx.get('subscriptions', id);
  return subscription === undefined ? err(atIndex(index, `subscription ${id} not found`)) : ok(subscription);
}

function pendingOf(
  tx: Transaction,
  pending: Map<string, Pending>,
  subscription: Subscription,
  item: MeteredByEvents,
): Pending {
  const key = `${subscription.id}/${item.component.id}`;
  const found = pending.get(key);
  if (found !== undefined) return found;
  const stored = usageRowOf(tx, subscription.id, item.component.id);
  const current = stored !== undefined && stored.periodStart === subscription.currentPeriodStartedAt;
  const created: Pending = {
    base: stored,
    subscription,
    item,
    total: accumulatorOf(current ? stored : EMPTY_AGGREGATE),
    segments: new Map(
      current
        ? stored.bySegment.map((bucket) => [
            JSON.stringify(bucket.values),
            { values: bucket.values, accumulator: accumulatorOf(bucket) },
          ])
        : [],
    ),
  };
  pending.set(key, created);
  return created;
}

function fold(entry: Pending, event: unknown, index: number): Result<void, DomainError> {
  const { metric } = entry.item;
  const added = addEvent(entry.total, metric, event);
  if (!added.ok) return err(atIndex(index, added.error));
  const values = segmentValuesOf(metric, event);
  if (values === null) return ok(undefined);
  const key = JSON.stringify(values);
  const bucket = entry.segments.get(key) ?? { values, accumulator: accumulatorOf(EMPTY_AGGREGATE) };
  entry.segments.set(key, bucket);
  const segmentAdded = addEvent(bucket.accumulator, metric, event);
  return segmentAdded.ok ? ok(undefined) : err(atIndex(index, segmentAdded.error));
}

function save(tx: Transaction, entry: Pending): void {
  const { base, subscription, item } = entry;
  const fields = {
    subscriptionId: subscription.id,
    componentId: item.component.id,
    metricId: item.metric.id,
    periodStart: subscription.currentPeriodStartedAt,
    ...aggregateOf(entry.total),
    bySegment: [...entry.segments.values()].map((bucket) => ({
      values: bucket.values,
      ...aggregateOf(bucket.accumulator),
    })),
    updatedAt: tx.now,
  };
  tx.put(
    'eventUsage',
    base === undefined
      ? { id: tx.nextId('eventUsage'), ...fields, createdAt: tx.now }
      : { ...fields, id: base.id, createdAt: base.createdAt },
  );
}

/**
 * Ingests a bulk body into a stream: 404 when no metric of the site reads the stream, 422 (naming the
 * item's index) for a body that is not an array of at most 1000 items or an item that is invalid or
 * names an unknown subscription. Returns the number of items ingested.
 * @example ingestEvents(tx, 'api-calls', [{ svc: { subscription_id: 1 }, path: '/x' }])
 */
export function ingestEvents(
  tx: Transaction,
  streamHandle: string,
  body: unknown,
): Result<number, DomainError> {
  if (!tx.settings.metrics.some((metric) => metric.streamHandle === streamHandle))
    return err(notFound('Stream'));
  if (!Array.isArray(body)) return err(invalid('invalid_events', 'The body must be an array of events.'));
  if (body.length > MAX_BULK_EVENTS)
    return err(invalid('too_many_events', `At most ${MAX_BULK_EVENTS} events may be sent at once.`));
  const components = new Map<number, MeteredByEvents[]>();
  const pending = new Map<string, Pending>();
  for (const [index, event] of body.entries()) {
    const subscription = itemSubscription(tx, event, index);
    if (!subscription.ok) return subscription;
    const used =
      components.get(subscription.value.id) ??
      eventComponentsOf(tx, subscription.value).filter((each) => each.metric.streamHandle === streamHandle);
    components.set(subscription.value.id, used);
    for (const item of used) {
      const folded = fold(pendingOf(tx, pending, subscription.value, item), event, index);
      if (!folded.ok) return folded;
    }
  }
  for (const entry of pending.values()) save(tx, entry);
  return ok(body.length);
}
