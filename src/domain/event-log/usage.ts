/**
 * Event-based usage: what the events ingested into a stream add to the usage of an
 * event-based component for a subscription's current period, under its metric's aggregation (count of
 * events, sum or max of a numeric property, count of distinct values of a property), in total and per
 * segment (the values of the metric's `segmentProperties`). Pure: the accumulator is mutable only while
 * one request folds its events in, and the stored row is plain JSON.
 */
import { add, cmp, type Dec, parseDecimal } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import type { SegmentValue, SegmentValues } from '../catalog/component.js';
import type { SiteMetric } from '../site/config.js';

/** Distinct values a `unique` metric keeps per component and period; more is refused (422). */
export const MAX_UNIQUE_VALUES = 10_000;

/** Keys never followed when reading an event property: they would reach a prototype. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The aggregation state of a metric over some events. */
export interface UsageAggregate {
  readonly count: number;
  readonly sum: Dec;
  /** The largest value seen; null before any numeric value. */
  readonly max: Dec | null;
  /** The distinct values seen, each as its JSON text, in first-seen order (at most MAX_UNIQUE_VALUES). */
  readonly uniqueValues: readonly string[];
}

/** The usage of one combination of segment property values. */
export interface SegmentUsage extends UsageAggregate {
  readonly values: SegmentValues;
}

/** A subscription's usage of an event-based component in one period (the `eventUsage` table). */
export interface EventUsage extends UsageAggregate {
  readonly id: number;
  readonly subscriptionId: number;
  readonly componentId: number;
  readonly metricId: number;
  /** The start of the subscription period the usage belongs to; a renewal bills it and starts again. */
  readonly periodStart: Instant;
  readonly bySegment: readonly SegmentUsage[];
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

export const EMPTY_AGGREGATE: UsageAggregate = { count: 0, sum: '0', max: null, uniqueValues: [] };

/**
 * A property of an event, by name or dotted path (`a.b`), own properties only: `__proto__`,
 * `constructor` and `prototype` are never followed. Undefined when absent.
 * @example readProperty({ a: { b: 2 } }, 'a.b') // 2
 */
export function readProperty(event: unknown, path: string): unknown {
  let current: unknown = event;
  for (const key of path.split('.')) {
    if (FORBIDDEN_KEYS.has(key) || current === null || typeof current !== 'object' || Array.isArray(current))
      return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Readonly<Record<string, unknown>>)[key];
  }
  return current;
}

/** An aggregate being folded; `uniques` mirrors `uniqueValues` for constant-time membership. */
export interface Accumulator {
  count: number;
  sum: Dec;
  max: Dec | null;
  readonly uniques: Set<string>;
}

export const accumulatorOf = (aggregate: UsageAggregate): Accumulator => ({
  count: aggregate.count,
  sum: aggregate.sum,
  max: aggregate.max,
  uniques: new Set(aggregate.uniqueValues),
});

export const aggregateOf = (accumulator: Accumulator): UsageAggregate => ({
  count: accumulator.count,
  sum: accumulator.sum,
  max: accumulator.max,
  uniqueValues: [...accumulator.uniques],
});

/** A numeric property value as a decimal; strings that are numbers count, anything else does not. */
function numericValue(value: unknown): Dec | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const parsed = parseDecimal(value, { maxIntegerDigits: 15, maxScale: 10 });
  return parsed.ok ? parsed.value : null;
}

/**
 * Folds one event into an accumulator under a metric: the count always grows; `sum`/`max` take the
 * property's numeric value (an event without one adds nothing); `unique` records the property's value
 * (a string, number or boolean). Fails only when the distinct values would exceed MAX_UNIQUE_VALUES.
 * @example addEvent(accumulatorOf(EMPTY_AGGREGATE), metric, { bytes: 10 })
 */
export function addEvent(accumulator: Accumulator, metric: SiteMetric, event: unknown): Result<void, string> {
  accumulator.count += 1;
  if (metric.property === undefined || metric.aggregation === 'count') return ok(undefined);
  const value = readProperty(event, metric.property);
  if (metric.aggregation === 'unique') {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      return ok(undefined);
    const text = JSON.stringify(value);
    if (!accumulator.uniques.has(text) && accumulator.uniques.size >= MAX_UNIQUE_VALUES)
      return err(`more than ${MAX_UNIQUE_VALUES} distinct values of ${metric.property} in one period`);
    accumulator.uniques.add(text);
    return ok(undefined);
  }
  const number = numericValue(value);
  if (number === null) return ok(undefined);
  accumulator.sum = add(accumulator.sum, number);
  if (accumulator.max === null || cmp(number, accumulator.max) > 0) accumulator.max = number;
  return ok(undefined);
}

/**
 * The segment property values of an event under a metric (slots fill from the first), or null when the
 * metric is not segmented. A value that is not a string, number or boolean reads as null.
 * @example segmentValuesOf({ ...metric, segmentProperties: ['region'] }, { region: 'EU' }) // ['EU', null, null, null]
 */
export function segmentValuesOf(metric: SiteMetric, event: unknown): SegmentValues | null {
  const names = metric.segmentProperties;
  if (names === undefined || names.length === 0) return null;
  const slot = (index: number): SegmentValue | null => {
    const name = names[index];
    if (name === undefined) return null;
    const value = readProperty(event, name);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : null;
  };
  return [slot(0), slot(1), slot(2), slot(3)];
}

/**
 * The billable quantity of an aggregate under an aggregation.
 * @example quantityOf({ count: 3, sum: '7', max: '5', uniqueValues: ['"a"'] }, 'max') // '5'
 */
export function quantityOf(aggregate: UsageAggregate, aggregation: SiteMetric['aggregation']): Dec {
  switch (aggregation) {
    case 'count':
      return String(aggregate.count);
    case 'sum':
      return aggregate.sum;
    case 'max':
      return aggregate.max ?? '0';
    case 'unique':
      return String(aggregate.uniqueValues.length);
  }
}
