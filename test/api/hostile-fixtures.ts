/**
 * Shared setup of the hostile-input tests (issue 10 item 4): a site rich in every kind of row, the
 * accepted requests of the simulation that built it (one valid body per route, to mutate), and the
 * checks every hostile request must pass: a 4xx, the identical state object, no events, no change to
 * any built-in prototype.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { type ApiRequest, type HandleResult, handle, type SiteState } from '../../src/index.js';
import { tableGet, tableRows } from '../../src/kernel/collection.js';
import {
  checkLedger,
  commandSequenceArbitrary,
  simulate,
  simulationConfig,
} from '../../src/testing/index.js';

export interface Hostile {
  readonly state: SiteState;
  readonly now: string;
  /** One accepted write request per route template, from the run that built the site. */
  readonly corpus: readonly ApiRequest[];
}

const templateOf = (request: ApiRequest): string =>
  `${request.method} ${request.path.replace(/inv_\w+|grp_\w+|\d+/g, '{}')}`;

/** Valid writes on routes the simulation does not drive, so that their bodies get mutated too. */
function extraWrites(state: SiteState): ApiRequest[] {
  const live = [...tableRows(state.tables.subscriptions)].find((row) => row.state === 'active')?.id ?? 1;
  const couponFamily = tableGet(state.tables.coupons, 1)?.productFamilyId ?? 1;
  const current = tableGet(state.tables.subscriptions, live)?.productId;
  const otherProduct = [...tableRows(state.tables.products)].find((row) => row.id !== current)?.id ?? 1;
  return [
    {
      method: 'POST',
      path: '/products/1/price_points.json',
      body: {
        price_point: {
          name: 'Gold',
          handle: 'hostile-gold',
          price_in_cents: 5000,
          interval: 1,
          interval_unit: 'month',
        },
      },
    },
    {
      method: 'POST',
      path: '/components/1/price_points.json',
      body: {
        price_point: {
          name: 'Bulk',
          pricing_scheme: 'volume',
          prices: [
            { starting_quantity: 1, ending_quantity: 10, unit_price: '2' },
            { starting_quantity: 11, unit_price: '1' },
          ],
        },
      },
    },
    {
      method: 'POST',
      path: '/features.json',
      body: {
        feature: {
          name: 'Seats cap',
          key: 'hostile_seats',
          kind: 'usage_limit',
          unit: 'seats',
          value_type: 'numeric',
          default_value: 5,
        },
      },
    },
    {
      method: 'PUT',
      path: '/customers/1.json',
      body: {
        customer: {
          entity_identifier_kind: 'duns',
          entity_identifier_value: '123456789',
          vat_number: 'FR12345678901',
        },
      },
    },
    {
      method: 'PUT',
      path: `/product_families/${couponFamily}/coupons/1.json`,
      body: { coupon: { description: 'updated', stackable: true } },
    },
    { method: 'POST', path: '/coupons/1/codes.json', body: { codes: ['HOSTILE1', 'HOSTILE2'] } },
    {
      method: 'POST',
      path: `/subscriptions/${live}/allocations/preview.json`,
      body: { allocations: [{ component_id: 1, quantity: 3 }] },
    },
    {
      method: 'POST',
      path: `/subscriptions/${live}/renewals/preview.json`,
      body: { components: [{ component_id: 1, quantity: 2 }] },
    },
    {
      method: 'POST',
      path: `/subscriptions/${live}/migrations/preview.json`,
      body: { migration: { product_id: otherProduct } },
    },
  ];
}

let built: Hostile | undefined;

/** The site (built once per test file): a seeded simulation of 250 commands. */
export function hostileSite(): Hostile {
  if (built !== undefined) return built;
  const [commands] = fc.sample(commandSequenceArbitrary({ minLength: 250, maxLength: 250 }), {
    seed: 5,
    numRuns: 1,
  });
  if (commands === undefined) throw new Error('fast-check produced a sequence');
  const run = simulate(simulationConfig(), commands);
  expect(run.failure).toBeNull();
  const corpus = new Map<string, ApiRequest>();
  for (const step of run.steps) {
    const { request } = step;
    if (request === undefined || request.method === 'GET' || (step.status ?? 500) >= 400) continue;
    const template = templateOf(request);
    if (!corpus.has(template)) corpus.set(template, request);
  }
  const now = run.steps.at(-1)?.now ?? '2027-01-01T00:00:00Z';
  const extra = extraWrites(run.state);
  const answers = extra.map((request) => ({
    request,
    response: handle(run.state, request, { now }).response,
  }));
  // Each must apply to the simulated site, or it would seed nothing.
  expect(answers.filter(({ response }) => response.status >= 400)).toEqual([]);
  const accepted = answers.map(({ request }) => request);
  built = { state: run.state, now, corpus: [...corpus.values(), ...accepted] };
  return built;
}

const PROTOTYPES: readonly [string, object][] = [
  ['Object', Object.prototype],
  ['Array', Array.prototype],
  ['Function', Function.prototype],
  ['String', String.prototype],
  ['Number', Number.prototype],
];

/** The own keys of the built-in prototypes, to compare before and after. */
export const prototypeKeys = (): Record<string, string[]> =>
  Object.fromEntries(PROTOTYPES.map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String).sort()]));

/** A hostile request must be refused with a 4xx that is not an internal fault, leaving the state as it was. */
export function expectRefused(state: SiteState, result: HandleResult, label: string): void {
  const { status, body } = result.response;
  const text = JSON.stringify(body ?? null);
  expect(status, `${label}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(status, `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(text, label).not.toContain('could not be processed');
  expect(result.state, label).toBe(state);
  expect(result.events, label).toEqual([]);
  expect(result.changes, label).toEqual([]);
}

/** Whatever a request is, it never faults; refused, it changes nothing. */
export function expectNoFault(state: SiteState, result: HandleResult, label: string): void {
  const { status, body } = result.response;
  const text = JSON.stringify(body ?? null);
  expect(status, `${label}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(text, label).not.toContain('could not be processed');
  if (status >= 400) {
    expect(result.state, label).toBe(state);
    expect(result.changes, label).toEqual([]);
  } else if (result.state !== state) {
    // Whatever a hostile request managed to do, the books still balance and agree with the rows.
    expect(checkLedger(result.state), label).toEqual([]);
  }
}

/** Handles a request and measures it. */
export function timed(
  state: SiteState,
  request: ApiRequest,
  now: string,
): { result: HandleResult; ms: number } {
  const started = performance.now();
  const result = handle(state, request, { now });
  return { result, ms: performance.now() - started };
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Every path to a leaf (a non-object value) of a JSON value. */
export function leafPaths(value: unknown, path: readonly (string | number)[] = []): (string | number)[][] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [index, item] as const)
      : Object.entries(value);
    return entries.flatMap(([key, item]) => leafPaths(item, [...path, key]));
  }
  return [[...path]];
}

/** Every path to an object (not an array) inside a JSON value, the value itself included. */
export function objectPaths(value: unknown, path: readonly (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const own = Array.isArray(value) ? [] : [[...path]];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item] as const)
    : Object.entries(value);
  return [...own, ...entries.flatMap(([key, item]) => objectPaths(item, [...path, key]))];
}

const MARKER = '@@hostile@@';

/**
 * The JSON text of `value` with the value at `path` replaced by raw JSON text (which may be a number no
 * JavaScript number can hold, or an object with an own `__proto__` key).
 */
export function withRawAt(value: unknown, path: readonly (string | number)[], raw: string): string {
  return JSON.stringify(setAt(value, path, MARKER)).replace(JSON.stringify(MARKER), () => raw);
}

function setAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item));
  const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return { ...record, [head]: setAt(record[head], rest, replacement) };
}
