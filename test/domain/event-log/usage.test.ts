import { describe, expect, test } from 'vitest';
import {
  accumulatorOf,
  addEvent,
  aggregateOf,
  EMPTY_AGGREGATE,
  MAX_UNIQUE_VALUES,
  quantityOf,
  readProperty,
  segmentValuesOf,
  type UsageAggregate,
} from '../../../src/domain/event-log/usage.js';
import type { SiteMetric } from '../../../src/domain/site/config.js';

const metric = (aggregation: SiteMetric['aggregation'], property?: string): SiteMetric =>
  property === undefined
    ? { id: 1, name: 'm', streamHandle: 's', aggregation }
    : { id: 1, name: 'm', streamHandle: 's', aggregation, property };

const fold = (m: SiteMetric, events: readonly unknown[]): UsageAggregate => {
  const accumulator = accumulatorOf(EMPTY_AGGREGATE);
  for (const event of events) expect(addEvent(accumulator, m, event)).toEqual({ ok: true, value: undefined });
  return aggregateOf(accumulator);
};

describe('readProperty', () => {
  test('reads own properties by name or dotted path', () => {
    expect(readProperty({ a: { b: 2 } }, 'a.b')).toBe(2);
    expect(readProperty({ a: 1 }, 'a')).toBe(1);
    expect(readProperty({ 'a.b': 1 }, 'a.b')).toBeUndefined();
    expect(readProperty({ a: { b: null } }, 'a.b')).toBeNull();
  });
  test('absent, non-object and array steps read as undefined', () => {
    expect(readProperty({ a: 1 }, 'b')).toBeUndefined();
    expect(readProperty({ a: 1 }, 'a.b')).toBeUndefined();
    expect(readProperty({ a: null }, 'a.b')).toBeUndefined();
    expect(readProperty(null, 'a')).toBeUndefined();
    expect(readProperty('text', 'length')).toBeUndefined();
    expect(readProperty({ a: [5] }, 'a.0')).toBeUndefined();
  });
  test('never follows keys that reach a prototype', () => {
    expect(readProperty({}, 'constructor')).toBeUndefined();
    expect(readProperty({}, '__proto__')).toBeUndefined();
    expect(readProperty({ constructor: { prototype: 1 } }, 'constructor.prototype')).toBeUndefined();
    expect(readProperty(JSON.parse('{"__proto__": {"x": 1}}'), '__proto__.x')).toBeUndefined();
    expect(readProperty({}, 'toString')).toBeUndefined();
  });
});

describe('addEvent and quantityOf', () => {
  test('count counts every event, with or without the property', () => {
    const aggregate = fold(metric('count', 'bytes'), [{ bytes: 3 }, {}, null]);
    expect(aggregate).toEqual({ count: 3, sum: '0', max: null, uniqueValues: [] });
    expect(quantityOf(aggregate, 'count')).toBe('3');
  });
  test('a metric without a property only counts', () => {
    expect(fold(metric('sum'), [{ bytes: 3 }])).toEqual({ count: 1, sum: '0', max: null, uniqueValues: [] });
  });
  test('sum and max take numeric values, numeric strings included, and skip the rest', () => {
    const events = [{ bytes: 10 }, { bytes: '2.5' }, { bytes: 'lots' }, { bytes: true }, {}, { bytes: 4 }];
    const aggregate = fold(metric('sum', 'bytes'), events);
    expect(aggregate).toEqual({ count: 6, sum: '16.5', max: '10', uniqueValues: [] });
    expect(quantityOf(aggregate, 'sum')).toBe('16.5');
    expect(quantityOf(fold(metric('max', 'bytes'), events), 'max')).toBe('10');
  });
  test('max keeps the largest, negatives included, and is 0 before any value', () => {
    expect(fold(metric('max', 'v'), [{ v: -5 }, { v: -2 }, { v: -3 }]).max).toBe('-2');
    expect(fold(metric('max', 'v'), [{ v: 1 }, { v: 1 }]).max).toBe('1');
    expect(quantityOf(fold(metric('max', 'v'), [{}]), 'max')).toBe('0');
  });
  test('unique counts distinct values, telling types apart and skipping objects', () => {
    const events = [
      { u: 'a' },
      { u: 'a' },
      { u: 1 },
      { u: '1' },
      { u: true },
      { u: { x: 1 } },
      { u: null },
      {},
    ];
    const aggregate = fold(metric('unique', 'u'), events);
    expect(aggregate).toEqual({ count: 8, sum: '0', max: null, uniqueValues: ['"a"', '1', '"1"', 'true'] });
    expect(quantityOf(aggregate, 'unique')).toBe('4');
  });
  test('unique refuses one distinct value beyond the limit, but not a repeat', () => {
    const full = {
      ...EMPTY_AGGREGATE,
      uniqueValues: Array.from({ length: MAX_UNIQUE_VALUES }, (_, index) => String(index)),
    };
    const accumulator = accumulatorOf(full);
    expect(addEvent(accumulator, metric('unique', 'u'), { u: 5 })).toEqual({ ok: true, value: undefined });
    expect(addEvent(accumulator, metric('unique', 'u'), { u: MAX_UNIQUE_VALUES })).toEqual({
      ok: false,
      error: 'more than 10000 distinct values of u in one period',
    });
    expect(aggregateOf(accumulator).uniqueValues).toHaveLength(MAX_UNIQUE_VALUES);
    const almostFull = accumulatorOf({ ...full, uniqueValues: full.uniqueValues.slice(1) });
    expect(addEvent(almostFull, metric('unique', 'u'), { u: 'new' }).ok).toBe(true);
  });
  test('an accumulator resumes from a stored aggregate', () => {
    const stored = { count: 2, sum: '5', max: '4', uniqueValues: [] };
    const accumulator = accumulatorOf(stored);
    addEvent(accumulator, metric('sum', 'v'), { v: 3 });
    expect(aggregateOf(accumulator)).toEqual({ count: 3, sum: '8', max: '4', uniqueValues: [] });
  });
});

describe('segmentValuesOf', () => {
  const segmented = (segmentProperties: readonly string[]): SiteMetric => ({
    ...metric('count'),
    segmentProperties,
  });
  test('an unsegmented metric has no segment values', () => {
    expect(segmentValuesOf(metric('count'), { region: 'EU' })).toBeNull();
    expect(segmentValuesOf(segmented([]), { region: 'EU' })).toBeNull();
  });
  test('fills the slots in order; missing or non-scalar values read as null', () => {
    expect(segmentValuesOf(segmented(['region']), { region: 'EU' })).toEqual(['EU', null, null, null]);
    expect(
      segmentValuesOf(segmented(['region', 'tier', 'beta', 'meta.size']), {
        region: 'EU',
        tier: 2,
        beta: false,
        meta: { size: 'L' },
      }),
    ).toEqual(['EU', 2, false, 'L']);
    expect(segmentValuesOf(segmented(['a', 'b']), { a: { x: 1 } })).toEqual([null, null, null, null]);
  });
});
