import { describe, expect, it } from 'vitest';
import { type AppliedRequest, createApiFetchHandler, createFetchHandler } from '../../src/adapters/fetch.js';
import { createSite } from '../../src/engine/state.js';
import { basicAuth, num } from '../helpers/api.js';

const KEY = 'fetch-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const ORIGIN = 'http://billing.test';

const post = (path: string, body: string, extra: RequestInit = {}) =>
  new Request(`${ORIGIN}${path}`, { method: 'POST', headers, body, ...extra });

/** A body that arrives only when `release` is called. */
function heldBody(text: string): { body: ReadableStream<Uint8Array>; release: () => void } {
  let release: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      release = () => {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      };
    },
  });
  return { body, release: () => release() };
}

describe('createFetchHandler', () => {
  it('serves the REST API over Request and Response, keeping the state and using the given clock', async () => {
    const app = createFetchHandler({ site: { apiKeys: [KEY] }, now: () => '2026-04-01T08:00:00Z' });
    const initial = app.state();
    const created = await app(
      post(
        '/customers.json',
        JSON.stringify({ customer: { first_name: 'Ada', last_name: 'L', email: 'a@example.com' } }),
      ),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body: unknown = await created.json();
    expect(num(body, 'customer', 'id')).toBe(1);
    expect(app.state()).not.toBe(initial);
    expect(app.state().clock).toBe('2026-04-01T08:00:00.000Z');

    const listed = await app(new Request(`${ORIGIN}/customers.json?per_page=5`, { headers }));
    expect(listed.status).toBe(200);
    expect(await listed.json()).toHaveLength(1);
    const anonymous = await app(new Request(`${ORIGIN}/customers.json`));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Basic');
  });

  it('starts from a given state, and answers 400 for malformed JSON and 413 over the body limit', async () => {
    const start = createSite({ apiKeys: [KEY] });
    const app = createFetchHandler({ state: start, maxBodyBytes: 100 });
    expect(app.state()).toBe(start);
    const malformed = await app(post('/customers.json', '{"customer": '));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ errors: ['The request body is not valid JSON.'] });

    const large = await app(
      post('/customers.json', JSON.stringify({ customer: { first_name: 'x'.repeat(200) } })),
    );
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ errors: ['The request body is larger than 100 bytes.'] });
    const { body, release } = heldBody('y'.repeat(150));
    release();
    const streamed = await app(post('/customers.json', '', { body, duplex: 'half' }));
    expect(streamed.status).toBe(413);
    expect(app.state()).toBe(start);
  });

  it('applies requests in call order even when an earlier body arrives later, and hands commit each one', async () => {
    const seen: AppliedRequest[] = [];
    const app = createFetchHandler({
      site: { apiKeys: [KEY] },
      now: () => '2026-04-01T08:00:00Z',
      commit: (applied) => {
        seen.push(applied);
      },
    });
    const held = heldBody(
      JSON.stringify({ customer: { first_name: 'First', last_name: 'F', email: 'f@example.com' } }),
    );
    const first = app(post('/customers.json', '', { body: held.body, duplex: 'half' }));
    const second = app(
      post(
        '/customers.json',
        JSON.stringify({ customer: { first_name: 'Second', last_name: 'S', email: 's@example.com' } }),
      ),
    );
    const read = app(new Request(`${ORIGIN}/customers.json`, { headers }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([]);
    held.release();
    const [one, two, list] = await Promise.all([first, second, read]);
    expect(num(await one.json(), 'customer', 'id')).toBe(1);
    expect(num(await two.json(), 'customer', 'id')).toBe(2);
    expect(await list.json()).toHaveLength(2);
    expect(seen.map((applied) => [applied.request.method, applied.changed, applied.response.status])).toEqual(
      [
        ['POST', true, 201],
        ['POST', true, 201],
        ['GET', false, 200],
      ],
    );
    expect(seen[2]?.state).toBe(app.state());
  });

  it('answers a request already read (app.answer) in turn with the fetch requests given before it', async () => {
    const app = createFetchHandler({ site: { apiKeys: [KEY] }, now: () => '2026-04-01T08:00:00Z' });
    const held = heldBody(
      JSON.stringify({ customer: { first_name: 'First', last_name: 'F', email: 'f@example.com' } }),
    );
    const first = app(post('/customers.json', '', { body: held.body, duplex: 'half' }));
    const second = app.answer({
      method: 'POST',
      path: '/customers.json',
      headers,
      body: JSON.stringify({ customer: { first_name: 'Second', last_name: 'S', email: 's@example.com' } }),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.state().tables.customers.count).toBe(0);
    held.release();
    const [one, two] = await Promise.all([first, second]);
    expect(num(await one.json(), 'customer', 'id')).toBe(1);
    expect(two.status).toBe(201);
    expect(num(two.body, 'customer', 'id')).toBe(2);
    // With nothing waiting, it is answered at once, and a bad body is refused as the fetch path refuses it.
    const bad = await app.answer({ method: 'POST', path: '/customers.json', headers, body: '{' });
    expect(bad).toEqual({ status: 400, body: { errors: ['The request body is not valid JSON.'] } });
  });

  it('holds each response until its commit settles, without holding up the next request', async () => {
    const releases: (() => void)[] = [];
    const app = createFetchHandler({
      site: { apiKeys: [KEY] },
      commit: () => new Promise<void>((resolve) => releases.push(resolve)),
    });
    let answered = 0;
    const first = app(new Request(`${ORIGIN}/customers.json`, { headers })).then((response) => {
      answered += 1;
      return response;
    });
    const second = app(new Request(`${ORIGIN}/customers.json`, { headers }));
    while (releases.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(answered).toBe(0);
    for (const release of releases) release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });

  it('answers 503 from the first failed commit on, keeping the host from acknowledging unsaved changes', async () => {
    let failing = false;
    const app = createFetchHandler({
      site: { apiKeys: [KEY] },
      commit: () => (failing ? Promise.reject(new Error('disk full')) : Promise.resolve()),
    });
    expect((await app(new Request(`${ORIGIN}/customers.json`, { headers }))).status).toBe(200);
    failing = true;
    const failed = await app(
      post(
        '/customers.json',
        JSON.stringify({ customer: { first_name: 'A', last_name: 'B', email: 'c@example.com' } }),
      ),
    );
    expect(failed.status).toBe(503);
    failing = false;
    expect((await app(new Request(`${ORIGIN}/customers.json`, { headers }))).status).toBe(503);
  });

  it('lets a host answer its own routes in turn with the engine', async () => {
    const app = createFetchHandler({
      site: { apiKeys: [KEY] },
      intercept: (request, state) =>
        request.path === '/_health'
          ? { status: 200, body: { customers: state.tables.customers.count } }
          : undefined,
    });
    expect(await (await app(new Request(`${ORIGIN}/_health`))).json()).toEqual({ customers: 0 });
    expect((await app(new Request(`${ORIGIN}/nothing.json`, { headers }))).status).toBe(404);
  });
});

describe('createApiFetchHandler', () => {
  it('answers 500 when the handler throws, answers 204 without a body, and keeps serving', async () => {
    let calls = 0;
    const handler = createApiFetchHandler((request) => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return request.method === 'DELETE' ? { status: 204 } : { status: 200, body: { path: request.path } };
    });
    const failed = await handler(new Request(`${ORIGIN}/x.json`));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ errors: ['Internal server error.'] });
    const deleted = await handler(new Request(`${ORIGIN}/x.json`, { method: 'DELETE' }));
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(await (await handler(new Request(`${ORIGIN}/a%20b.json?q=1`))).json()).toEqual({
      path: '/a%20b.json?q=1',
    });
  });
});

describe('faults through the fetch handler (CONTRACT 3)', () => {
  it('answers 500 "Internal error <id>" and tells onFault, whose own failure changes nothing', async () => {
    // A state no `createSite` makes: a zone that does not exist, so every instant it converts throws.
    const base = createSite();
    const broken = { ...base, settings: { ...base.settings, timeZone: 'Nowhere/Atlantis' } };
    const faults: string[] = [];
    const app = createFetchHandler({
      state: broken,
      now: () => '2026-04-01T08:00:00Z',
      onFault: (fault, request) => {
        faults.push(`${fault.id} ${request.method} ${request.path}`);
        throw new Error('the monitoring is down');
      },
    });
    const response = await app(
      new Request(`${ORIGIN}/customers.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' } }),
      }),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { errors: string[] };
    expect(faults).toHaveLength(1);
    expect(body.errors).toEqual([`Internal error ${faults[0]?.split(' ')[0]}`]);
    expect(faults[0]).toMatch(/^[0-9a-f]{8} POST \/customers\.json$/);
    expect(app.state()).toBe(broken);
  });
});
