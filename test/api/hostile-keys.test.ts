/**
 * Prototype keys (issue 10 item 4): `__proto__`, `constructor`, `prototype` and their kin as own keys of
 * every object of every write the simulation made (coupon restrictions, usage events and their `svc`
 * object, price brackets, segment values, ...), as the value of every text field (which the engine may
 * look up in a table), in query strings and in headers. Nothing faults, a refusal leaves the identical
 * state, and no built-in prototype changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle } from '../../src/index.js';
import {
  expectNoFault,
  hostileSite,
  leafPaths,
  objectPaths,
  prototypeKeys,
  withRawAt,
} from './hostile-fixtures.js';

const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
/** JSON text of an object whose own keys would reach prototypes if copied or merged naively. */
const POISON =
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}';

const { state, now, corpus } = hostileSite();

const objectTargets = corpus.flatMap((request) =>
  objectPaths(request.body ?? {}).map((path) => ({ request, path })),
);
const textTargets = corpus.flatMap((request) =>
  leafPaths(request.body ?? {})
    .filter(
      (path) =>
        typeof path.reduce<unknown>(
          (value, key) => (value as Record<string | number, unknown>)?.[key],
          request.body,
        ) === 'string',
    )
    .map((path) => ({ request, path })),
);

/** Explicit maps the API reads keys of. */
const MAPS: readonly { method: string; path: string; body: string }[] = [
  {
    method: 'POST',
    path: '/product_families/1/coupons.json',
    body: `{"coupon":{"name":"P","code":"PROTO1","percentage":"10"},"restricted_products":${POISON},"restricted_components":{"__proto__":true,"constructor":false,"prototype":true}}`,
  },
  {
    method: 'POST',
    path: '/events/events/bulk.json',
    body: `[{"svc":{"subscription_id":1,"__proto__":{"subscription_id":2}},"__proto__":{"bytes":5},"constructor":"x","prototype":1}]`,
  },
  {
    method: 'POST',
    path: '/events/bytes/bulk.json',
    body: `[{"svc":{"subscription_id":1},"bytes":${POISON}}]`,
  },
  { method: 'POST', path: '/events/__proto__/bulk.json', body: '[]' },
  { method: 'POST', path: '/events/constructor/bulk.json', body: '[]' },
  {
    method: 'PUT',
    path: '/customers/1.json',
    body: '{"customer":{"entity_identifier_kind":"__proto__","entity_identifier_value":"constructor","country":"constructor","state":"__proto__"}}',
  },
  {
    method: 'POST',
    path: '/coupons/1/codes.json',
    body: '{"codes":["__proto__","constructor","prototype"]}',
  },
  {
    method: 'POST',
    path: '/features.json',
    body: '{"feature":{"name":"F","key":"__proto__","value_type":"boolean"}}',
  },
  { method: 'POST', path: '/features.json', body: `{"feature":${POISON}}` },
];

let before: Record<string, string[]>;
beforeAll(() => {
  before = prototypeKeys();
});
afterAll(() => {
  expect(prototypeKeys()).toEqual(before);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
});

describe('prototype keys through handle()', () => {
  it(`adds ${KEYS.length} prototype keys to ${objectTargets.length} objects of the corpus bodies (${KEYS.length * objectTargets.length * 2} requests)`, () => {
    expect(objectTargets.length).toBeGreaterThan(40);
    for (const { request, path } of objectTargets) {
      for (const key of KEYS) {
        for (const value of ['{"polluted":true}', POISON]) {
          const body = withRawAt(request.body ?? {}, [...path, '@key@'], value).replace(
            '"@key@"',
            JSON.stringify(key),
          );
          const result = handle(state, { ...request, body }, { now });
          expectNoFault(state, result, `${request.path} ${[...path, key].join('.')}`);
        }
      }
    }
  });

  it(`puts ${KEYS.length} prototype keys in ${textTargets.length} text fields and replaces objects by a poisoned one`, () => {
    expect(textTargets.length).toBeGreaterThan(40);
    for (const { request, path } of textTargets) {
      for (const raw of [...KEYS.map((key) => JSON.stringify(key)), POISON]) {
        const result = handle(state, { ...request, body: withRawAt(request.body ?? {}, path, raw) }, { now });
        expectNoFault(state, result, `${request.path} ${path.join('.')} = ${raw.slice(0, 20)}`);
      }
    }
  });

  it(`sends poisoned maps to the ${MAPS.length} endpoints that read keys (coupon restrictions, events, tax ids, subcodes, features)`, () => {
    for (const request of MAPS) {
      const result = handle(state, request, { now });
      expectNoFault(state, result, `${request.method} ${request.path}`);
      expect(JSON.stringify(result.changes)).not.toContain('"polluted"');
    }
  });

  it(`puts ${KEYS.length} prototype keys in query strings, query objects and headers`, () => {
    const paths = [
      '/events.json',
      '/customers.json',
      '/invoices.json',
      '/subscriptions.json',
      '/coupons/find.json',
    ];
    for (const path of paths) {
      for (const key of KEYS) {
        const queries = [
          `${key}=1`,
          `filter[${key}]=1`,
          `filter[${key}][${key}]=x&${key}[]=1`,
          `resume[${key}]=true`,
          `code=${key}`,
        ];
        for (const query of queries) {
          const result = handle(
            state,
            {
              method: 'GET',
              path: `${path}?${query}`,
              query: JSON.parse(`{"${key}":"1","filter":"x"}`) as Record<string, string>,
              headers: JSON.parse(`{"${key}":"x","Authorization":"Basic ${key}"}`) as Record<string, string>,
            },
            { now },
          );
          expectNoFault(state, result, `${path}?${query}`);
          expect(result.state).toBe(state);
        }
      }
    }
  });
});
