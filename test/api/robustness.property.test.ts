import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { type ApiRequest, createSite, handle, type SiteState } from '../../src/index.js';
import { toInstant } from '../../src/kernel/time.js';
import { checkRefusal } from '../../src/testing/index.js';
import { routeRequestArb } from '../helpers/routes.js';
import { catalogSite } from '../helpers/scenarios.js';
import { runSteps, scriptArb } from '../helpers/scripts.js';

const FAULT = 'could not be processed';
const STATUSES = [200, 201, 204, 400, 401, 404, 405, 422, 429];
const states: readonly SiteState[] = [
  createSite(),
  catalogSite(),
  catalogSite({ apiKeys: ['KEY'], timeZone: 'Pacific/Apia' }),
];
const stateArb = fc.constantFrom(...states);
const nowArb = fc.oneof(
  fc.constantFrom('2026-01-15T12:00:00Z', '2026-02-20T00:00:00Z', '2027-01-01T00:00:00+14:00'),
  fc.date({
    min: new Date('2025-06-01T00:00:00Z'),
    max: new Date('2026-12-31T00:00:00Z'),
    noInvalidDate: false,
  }),
);
const methodArb = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get', 'delete', ''),
  fc.string({ maxLength: 8 }),
);
const bodyArb = fc.oneof(fc.jsonValue(), fc.json(), fc.string(), fc.constant(undefined));
const queryArb = fc.option(
  fc.dictionary(
    fc.string({ maxLength: 12 }),
    fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 })),
  ),
  { nil: undefined },
);
const headersArb = fc.option(
  fc.oneof(
    fc.dictionary(fc.string({ maxLength: 16 }), fc.string({ maxLength: 40 })),
    fc.constantFrom(
      { authorization: `Basic ${btoa('KEY:x')}` },
      { Authorization: 'Basic' },
      { AUTHORIZATION: 'Basic =' },
    ),
  ),
  { nil: undefined },
);

/** Handles a request and checks the never-throw, never-fault contract; returns the status. */
function answer(state: SiteState, request: ApiRequest, now: string | Date): number {
  const result = handle(state, request, { now });
  const { status, body } = result.response;
  const text = JSON.stringify(body) ?? '';
  expect(STATUSES, `status ${status} for ${JSON.stringify(request)}: ${text}`).toContain(status);
  expect(text, `internal fault for ${JSON.stringify(request)} at ${String(now)}`).not.toContain(FAULT);
  // A refusal changes nothing it asked for; what fell due by its instant stays done (CONTRACT 2, amended).
  if (status >= 400 && result.state === state) expect(result.changes).toEqual([]);
  else if (status >= 400) expect(checkRefusal(state, result, toInstant(now))).toEqual([]);
  expect(JSON.parse(text === '' ? 'null' : text)).toEqual(body ?? null);
  return status;
}

const withQuery = (path: string, query: string) => (query.length > 0 ? `${path}?${query}` : path);

describe('handle never throws and never faults', () => {
  test.prop([stateArb, routeRequestArb, nowArb], { numRuns: 400 })(
    'law: handle never throws and never faults on every route with arbitrary ids, queries and JSON bodies',
    (state, request, now) => {
      answer(state, request, now);
    },
  );

  test.prop([stateArb, methodArb, fc.string(), bodyArb, nowArb])(
    'law: handle never throws and never faults on arbitrary path strings (fc.string)',
    (state, method, path, body, now) => {
      answer(state, { method, path, body }, now);
    },
  );

  test.prop([stateArb, methodArb, fc.webPath(), fc.webQueryParameters(), bodyArb, nowArb])(
    'law: handle never throws and never faults on arbitrary web paths and query strings (fc.webPath)',
    (state, method, path, query, body, now) => {
      answer(state, { method, path: withQuery(path, query), body }, now);
    },
  );

  test.prop([stateArb, routeRequestArb, queryArb, headersArb, nowArb])(
    'law: handle never throws and never faults with arbitrary query objects and headers',
    (state, request, query, headers, now) => {
      answer(
        state,
        {
          ...request,
          ...(query === undefined ? {} : { query }),
          ...(headers === undefined ? {} : { headers }),
        },
        now,
      );
    },
  );

  test.prop([stateArb, fc.anything(), fc.anything(), fc.anything()], { numRuns: 200 })(
    'law: handle never throws, whatever the shape of the request and context',
    (state, method, path, now) => {
      const request = { method, path } as unknown as ApiRequest;
      expect(() => handle(state, request, { now } as unknown as { now: string })).not.toThrow();
    },
  );
});

describe('scripts over time never fault', () => {
  test.prop([scriptArb], { numRuns: 150 })(
    'law: handle never throws and never faults over a script of requests spread over months',
    (steps) => {
      const run = runSteps(createSite(), steps);
      for (const [index, response] of run.responses.entries()) {
        expect(response, `step ${index}: ${JSON.stringify(steps[index])}`).not.toContain(FAULT);
        expect(response).not.toMatch(/"status":5\d\d/);
      }
    },
  );
});
