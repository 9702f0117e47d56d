import { request as httpRequest, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiHandler, close, createHttpServer, listen } from '../../src/adapters/node-http.js';
import type { ApiRequest } from '../../src/api/types.js';

let servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.map(close));
  servers = [];
});

async function serve(handler: ApiHandler, maxBodyBytes?: number): Promise<string> {
  const server = createHttpServer(handler, maxBodyBytes === undefined ? {} : { maxBodyBytes });
  servers.push(server);
  const port = await listen(server, 0, '127.0.0.1');
  return `http://127.0.0.1:${port}`;
}

describe('node-http bridge', () => {
  it('hands the handler method, path with query, headers and the body as text', async () => {
    const seen: ApiRequest[] = [];
    const url = await serve((request) => {
      seen.push(request);
      return { status: 201, body: { ok: true, amount: '1.50' }, headers: { 'X-Extra': 'yes' } };
    });
    const response = await fetch(`${url}/customers.json?per_page=5&q=a%20b`, {
      method: 'POST',
      headers: { Authorization: 'Basic abc', 'Content-Type': 'application/json' },
      body: '{"customer":{"first_name":"Ada"}}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true, amount: '1.50' });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/customers.json?per_page=5&q=a%20b');
    expect(request?.headers?.['authorization']).toBe('Basic abc');
    expect(request?.body).toBe('{"customer":{"first_name":"Ada"}}');
  });

  it('leaves an empty body out, and answers 204 with no body and no content type', async () => {
    const seen: ApiRequest[] = [];
    const url = await serve((request) => {
      seen.push(request);
      return { status: 204 };
    });
    const response = await fetch(`${url}/invoices/inv_1.json`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.headers.get('content-type')).toBeNull();
    expect(await response.text()).toBe('');
    expect(seen[0]?.method).toBe('DELETE');
    expect(seen[0] !== undefined && 'body' in seen[0]).toBe(false);
  });

  it('answers 413 when the body is over the limit, without calling the handler', async () => {
    let calls = 0;
    const url = await serve(() => {
      calls += 1;
      return { status: 200, body: {} };
    }, 64);
    const small = await fetch(`${url}/a.json`, { method: 'POST', body: 'x'.repeat(64) });
    expect(small.status).toBe(200);
    const large = await fetch(`${url}/a.json`, { method: 'POST', body: 'x'.repeat(65) });
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ errors: ['The request body is larger than 64 bytes.'] });
    expect(calls).toBe(1);
  });

  it('answers 413 for a chunked body that grows over the limit', async () => {
    const url = new URL(await serve(() => ({ status: 200, body: {} }), 100));
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        { host: url.hostname, port: url.port, path: '/a.json', method: 'POST' },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.write('x'.repeat(80));
      request.end('y'.repeat(80));
    });
    expect(status).toBe(413);
  });

  it('reads a body outside the queue: a request still sending does not hold up others, and is applied once complete', async () => {
    // Issue 21 item 3: no client can stall the others.
    const order: string[] = [];
    const url = new URL(
      await serve((request) => {
        order.push(request.path);
        return { status: 200, body: { path: request.path, body: request.body ?? null } };
      }),
    );
    let releaseSlow: () => void = () => {};
    const slow = new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/slow.json',
          method: 'POST',
          headers: { 'content-length': '8' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.write('{"a"');
      request.flushHeaders();
      releaseSlow = () => request.end(':1}\n');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const fast = await fetch(`${url.origin}/fast.json`);
    expect(fast.status).toBe(200);
    expect(order).toEqual(['/fast.json']);
    releaseSlow();
    expect(await slow).toBe(200);
    expect(order).toEqual(['/fast.json', '/slow.json']);
  });

  it('answers 500 when the host handler throws, and keeps serving', async () => {
    let fail = true;
    const url = await serve(() => {
      if (fail) {
        fail = false;
        throw new Error('boom');
      }
      return { status: 200, body: { fine: true } };
    });
    const first = await fetch(`${url}/x.json`);
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ errors: ['Internal server error.'] });
    const second = await fetch(`${url}/x.json`);
    expect(await second.json()).toEqual({ fine: true });
  });
});
