/**
 * Arbitrary input on every route (issue 10 item 4): generated JSON bodies (as values and as text with
 * prototype keys), paths and query strings against a site rich in rows. Nothing faults, a refusal
 * leaves the identical state, and no built-in prototype changes.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { handle } from '../../src/index.js';
import { ALL_ROUTES, routeRequestArb, segmentArb } from '../helpers/routes.js';
import { expectNoFault, hostileSite, prototypeKeys } from './hostile-fixtures.js';

const { state, now } = hostileSite();
const RUNS = 300;

/** JSON text with prototype keys sprinkled in, which `JSON.parse` makes own properties. */
const poisonedText = fc
  .tuple(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom('__proto__', 'constructor', 'prototype'))
  .map(([value, key]) => {
    const text = JSON.stringify(value);
    return text.startsWith('{') && text !== '{}'
      ? `{"${key}":{"polluted":true},${text.slice(1)}`
      : `{"${key}":${text}}`;
  });

const bodyArb = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  poisonedText,
  fc.string({ maxLength: 40 }),
  fc.constant(undefined),
);

const routeArb = fc.constantFrom(...ALL_ROUTES);
const fill = (path: string, segments: readonly string[]) =>
  segments.reduce((filled, segment) => filled.replace('{id}', encodeURIComponent(segment)), path);

const queryArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  fc.webQueryParameters(),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('per_page=1e999', 'page=-0', 'filter[__proto__][x]=1', '%', '%E0%A4%A', 'a=%00&&&b'),
);

let before: Record<string, string[]>;
beforeAll(() => {
  before = prototypeKeys();
});
afterAll(() => {
  expect(prototypeKeys()).toEqual(before);
});

describe(`arbitrary input on all ${ALL_ROUTES.length} routes`, () => {
  test.prop([routeArb, fc.array(segmentArb, { minLength: 3, maxLength: 3 }), queryArb, bodyArb], {
    numRuns: RUNS,
  })(
    `law: generated bodies, ids and query strings never fault, and a refusal changes nothing (${RUNS} requests)`,
    (route, segments, query, body) => {
      const path = `${fill(route.path, segments)}${query.length > 0 ? `?${query}` : ''}`;
      const result = handle(state, { method: route.method, path, body }, { now });
      expectNoFault(state, result, `${route.method} ${path}`);
    },
  );

  test.prop([routeRequestArb], { numRuns: RUNS })(
    `law: bodies aimed at each route's fields never fault (${RUNS} requests)`,
    ({ method, path, body }) => {
      const result = handle(state, { method, path, body }, { now });
      expectNoFault(state, result, `${method} ${path}`);
    },
  );

  test.prop(
    [
      fc.oneof(fc.webPath(), fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 })),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get', '', 'CONNECT'),
      bodyArb,
    ],
    { numRuns: RUNS },
  )(`law: arbitrary paths and methods never fault (${RUNS} requests)`, (path, method, body) => {
    const result = handle(state, { method, path, body }, { now });
    expectNoFault(state, result, `${method} ${path}`);
  });
});
