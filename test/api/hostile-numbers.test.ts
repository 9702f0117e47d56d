/**
 * Hostile numbers (issue 10 item 4) in every numeric field of every write the simulation made: numbers
 * no float can hold (1e999999999), 10,000-digit integers and decimals (as JSON numbers and as strings),
 * "NaN" and "Infinity", hexadecimal, the smallest denormal, negative zero. Each is refused quickly with a
 * 4xx and the identical state; negative zero and a number that underflows to zero may be read as 0, but
 * never stored as "-0".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/index.js';
import {
  expectNoFault,
  expectRefused,
  hostileSite,
  leafPaths,
  median,
  prototypeKeys,
  timed,
  withRawAt,
} from './hostile-fixtures.js';

const DIGITS = '9'.repeat(10_000);
const DECIMAL = `0.${'1'.repeat(10_000)}`;

/** JSON text that is never a valid amount, quantity, count or id. */
const NOT_NUMBERS = [
  '1e999999999',
  '-1e999999999',
  DIGITS,
  `-${DIGITS}`,
  DECIMAL,
  '5e-324',
  '"1e999999999"',
  `"${DIGITS}"`,
  `"${DECIMAL}"`,
  '"NaN"',
  '"Infinity"',
  '"-Infinity"',
  '"0x1F"',
  '"1_000"',
  '"١٢٣"',
];
/** JSON text that denotes zero. */
const ZEROS = ['-0', '"-0"', '1e-999999999'];

const { state, now, corpus } = hostileSite();

const isNumeric = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value));

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) current = (current as Record<string | number, unknown> | null)?.[key];
  return current;
}

/** Every numeric field of every corpus request. */
const numericFields = corpus.flatMap((request) =>
  leafPaths(request.body ?? {})
    .filter((path) => isNumeric(valueAt(request.body, path)))
    .map((path) => ({ request, path })),
);
/**
 * A usage event's own properties are free-form data (SPEC 2.15): a property a metric cannot read as a
 * number adds nothing, so the event is accepted. Every other numeric field is strict.
 */
const isEventProperty = (request: ApiRequest, path: readonly (string | number)[]) =>
  request.path.startsWith('/events/') && path[1] !== 'svc';
const targets = numericFields.filter(({ request, path }) => !isEventProperty(request, path));
const eventProperties = numericFields.filter(({ request, path }) => isEventProperty(request, path));

const withNumber = (request: ApiRequest, path: readonly (string | number)[], raw: string): ApiRequest => ({
  ...request,
  body: withRawAt(request.body ?? {}, path, raw),
});

const PATHS = [
  '/subscriptions/{}.json',
  '/invoices/{}.json',
  '/products/{}.json',
  '/customers/{}.json',
  '/coupons/{}.json',
  '/components/{}/price_points.json',
  '/subscriptions/{}/components/1/allocations.json',
];
const QUERIES = [
  '/events.json?per_page={}',
  '/events.json?since_id={}',
  '/customers.json?page={}',
  '/invoices.json?page={}',
];
const PATH_VALUES = ['1e999999999', DIGITS, '-0', 'NaN', 'Infinity', '-1', '0x1F', '1.5', DECIMAL];

let before: Record<string, string[]>;
beforeAll(() => {
  before = prototypeKeys();
});
afterAll(() => {
  expect(prototypeKeys()).toEqual(before);
});

describe('hostile numbers through handle()', () => {
  it(`refuses ${targets.length} numeric fields × ${NOT_NUMBERS.length} non-numbers (${targets.length * NOT_NUMBERS.length} requests) with a 4xx in well under a millisecond`, () => {
    expect(targets.length).toBeGreaterThan(40);
    const times: number[] = [];
    for (const { request, path } of targets) {
      for (const raw of NOT_NUMBERS) {
        const hostile = withNumber(request, path, raw);
        const { result, ms } = timed(state, hostile, now);
        times.push(ms);
        expectRefused(
          state,
          result,
          `${request.method} ${request.path} ${path.join('.')} = ${raw.slice(0, 24)}`,
        );
      }
    }
    expect(median(times)).toBeLessThan(1);
  });

  it(`reads negative zero and underflow in ${targets.length} numeric fields × ${ZEROS.length} as 0 or refuses them, never storing "-0"`, () => {
    const times: number[] = [];
    for (const { request, path } of targets) {
      for (const raw of ZEROS) {
        const { result, ms } = timed(state, withNumber(request, path, raw), now);
        times.push(ms);
        const label = `${request.method} ${request.path} ${path.join('.')} = ${raw}`;
        expectNoFault(state, result, label);
        if (result.response.status < 400)
          expect(JSON.stringify(result.changes), label).not.toMatch(/"-0(\.0*)?"|:-0[,}]/);
      }
    }
    expect(median(times)).toBeLessThan(1);
  });

  it(`accepts ${eventProperties.length} free-form event properties × ${NOT_NUMBERS.length} non-numbers as adding nothing, storing none of them`, () => {
    expect(eventProperties.length).toBeGreaterThan(0);
    for (const { request, path } of eventProperties) {
      for (const raw of NOT_NUMBERS) {
        const { result } = timed(state, withNumber(request, path, raw), now);
        const label = `${request.path} ${path.join('.')} = ${raw.slice(0, 24)}`;
        expectNoFault(state, result, label);
        const stored = JSON.stringify(result.changes);
        expect(stored, label).not.toMatch(/Infinity|NaN|9{100}|1{100}/);
      }
    }
  });

  it(`answers ${PATHS.length} id paths × ${PATH_VALUES.length} hostile ids with a 4xx`, () => {
    const times: number[] = [];
    for (const template of PATHS) {
      for (const value of PATH_VALUES) {
        const path = template.replace('{}', value);
        for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
          const { result, ms } = timed(state, { method, path, body: '{}' }, now);
          times.push(ms);
          expectRefused(state, result, `${method} ${path.slice(0, 60)}`);
        }
      }
    }
    expect(median(times)).toBeLessThan(1);
  });

  it(`answers ${QUERIES.length} paging queries × ${PATH_VALUES.length} hostile numbers without a fault (refused, or clamped as SPEC 8 says)`, () => {
    const times: number[] = [];
    for (const template of QUERIES) {
      for (const value of PATH_VALUES) {
        const { result, ms } = timed(state, { method: 'GET', path: template.replace('{}', value) }, now);
        times.push(ms);
        expectNoFault(state, result, template.replace('{}', value.slice(0, 24)));
        expect(result.state).toBe(state);
      }
    }
    expect(median(times)).toBeLessThan(1);
  });
});
