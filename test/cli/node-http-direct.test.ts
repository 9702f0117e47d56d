import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiFetchHandler } from '../../src/adapters/fetch.js';
import {
  close,
  createHttpServer,
  createNodeServer,
  listen,
  type NodeServer,
} from '../../src/adapters/node-http.js';
import type { ApiRequest, ApiResponse } from '../../src/api/types.js';

// The direct bridge (no fetch Request or Response on the way) must give the handler what the fetch
// bridge gives it, and put the same bytes on the wire.

let servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => close(server)));
  servers = [];
});

/** Sends raw bytes on one connection and reads until the server closes it or `timeoutMs` passes. */
function exchange(port: number, raw: string | Buffer, timeoutMs = 1500): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(received).toString('latin1'));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(raw);
  });
}

const withoutDate = (wire: string) => wire.replace(/\r\nDate: [^\r]*/g, '');

const answers: readonly ApiResponse[] = [
  {
    status: 201,
    body: { ok: true, amount: '1.50', text: 'é \u2028 "q" \ud800 😀' },
    headers: { 'X-Extra': ' yes ' },
  },
  { status: 204 },
  { status: 200 },
  { status: 401, body: { errors: ['no'] }, headers: { 'WWW-Authenticate': 'Basic', 'x-a': '1', 'X-A': '2' } },
  { status: 422, body: [] },
  { status: 700, body: { bad: 'status' } },
];

const requests: readonly (string | Buffer)[] = [
  'POST /customers.json?per_page=5&q=a%20b HTTP/1.1\r\nHost: x\r\nAuthorization: Basic abc\r\nContent-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n{"a":"\u00e9"}',
  'DELETE /invoices/inv_1.json HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
  'GET /a/./b/../c%7e.json?x=%41#frag HTTP/1.1\r\nHost: x\r\nX-Dup: 1\r\nx-dup: 2\r\nZ-Last: z\r\nA-First: a\r\nConnection: close\r\n\r\n',
  Buffer.concat([
    Buffer.from('PUT /bom.json HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\nConnection: close\r\n\r\n'),
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0xff, 0x20]),
  ]),
  'HEAD /head.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'TRACE /trace.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'PATCH /p.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
  'GET relative.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'OPTIONS /o.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  Buffer.from(
    'GET /latin.json HTTP/1.1\r\nHost: x\r\nX-Bytes: caf\xe9 \xff\r\nConnection: close\r\n\r\n',
    'latin1',
  ),
  Buffer.from('GET /nul.json HTTP/1.1\r\nHost: x\r\nX-Nul: a\x00b\r\nConnection: close\r\n\r\n', 'latin1'),
  'GET /%E2%82%AC/%zz.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
];

const SEEN_PATHS: readonly string[] = [
  '/customers.json?per_page=5&q=a%20b',
  '/invoices/inv_1.json',
  '/a/c%7e.json?x=%41',
  '/bom.json',
  '/head.json',
  '/p.json',
  '/o.json',
  '/latin.json',
  '/%E2%82%AC/%zz.json',
];

async function served(direct: boolean, answer: ApiResponse) {
  const seen: ApiRequest[] = [];
  const handler = (request: ApiRequest) => {
    seen.push(request);
    return answer;
  };
  const server = direct ? createHttpServer(handler) : createNodeServer(createApiFetchHandler(handler));
  servers.push(server);
  return { port: await listen(server, 0, '127.0.0.1'), seen };
}

describe('node-http: the direct bridge and the fetch bridge agree', () => {
  it('hands the handler the same requests and writes the same bytes, for every request and answer', async () => {
    for (const answer of answers) {
      const direct = await served(true, answer);
      const viaFetch = await served(false, answer);
      for (const raw of requests) {
        const [a, b] = [await exchange(direct.port, raw), await exchange(viaFetch.port, raw)];
        expect(withoutDate(a)).toBe(withoutDate(b));
        expect(a, String(raw).slice(0, 30)).toMatch(/^HTTP\/1\.1 \d{3} /);
      }
      expect(direct.seen).toEqual(viaFetch.seen);
      expect(JSON.stringify(direct.seen)).toBe(JSON.stringify(viaFetch.seen));
      // TRACE is refused by the bridge; a request line without a leading slash, and a NUL in a header, by node.
      expect(direct.seen.map((request) => request.path)).toEqual(SEEN_PATHS);
      const [, , dotted, bom, head, chunked] = direct.seen;
      expect(Object.keys(dotted?.headers ?? {})).toEqual([
        'a-first',
        'connection',
        'host',
        'x-dup',
        'z-last',
      ]);
      expect(dotted?.headers?.['x-dup']).toBe('1, 2');
      expect(bom?.body).toBe('{}\ufffd ');
      expect(head !== undefined && 'body' in head).toBe(false);
      expect(chunked?.body).toBe('abc');
    }
  });

  it('answers in call order: a request whose answer is a promise does not let the next one overtake it', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const server = createHttpServer((request) => {
      order.push(`start ${request.path}`);
      if (request.path === '/slow.json')
        return new Promise<ApiResponse>((resolve) => {
          release = () => resolve({ status: 200, body: { slow: true } });
        });
      return { status: 200, body: { path: request.path } };
    });
    servers.push(server);
    const port = await listen(server, 0, '127.0.0.1');
    const slow = exchange(port, 'GET /slow.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 3000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The slow answer's promise holds its response only: the next request is applied meanwhile.
    const fast = await exchange(port, 'GET /fast.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(fast).toContain('{"path":"/fast.json"}');
    release();
    expect(await slow).toContain('{"slow":true}');
    expect(order).toEqual(['start /slow.json', 'start /fast.json']);
  });

  it('answers 500 when the handler throws or rejects, and keeps serving', async () => {
    let calls = 0;
    const server = createHttpServer(() => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      if (calls === 2) return Promise.reject(new Error('later boom'));
      return { status: 200, body: { fine: true } };
    });
    servers.push(server);
    const port = await listen(server, 0, '127.0.0.1');
    const get = 'GET /x.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    expect(await exchange(port, get)).toMatch(
      /^HTTP\/1\.1 500 [\s\S]*\{"errors":\["Internal server error\."\]\}$/,
    );
    expect(await exchange(port, get)).toMatch(/^HTTP\/1\.1 500 /);
    expect(await exchange(port, get)).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"fine":true\}$/);
  });
});
