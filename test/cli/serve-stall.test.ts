/**
 * Issue 21 item 3: no client can stall the others. Credentials are checked from the headers before the
 * body is read, the body is read outside the one-at-a-time queue, and header and body reads have
 * deadlines. Loopback only; every loop is bounded in count and time.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { close, createHttpServer, listen, type NodeServer } from '../../src/adapters/node-http.js';
import { type RunningServer, startServer } from '../../src/cli/serve.js';
import { basicAuth } from '../helpers/api.js';

const KEY = 'stall-key';
const auth = basicAuth(`${KEY}:x`);

let running: RunningServer | undefined;
let servers: NodeServer[] = [];
let sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets = [];
  await running?.close();
  running = undefined;
  await Promise.all(servers.map((server) => close(server, 500)));
  servers = [];
});

/** A raw connection that sends request headers, then drips body bytes until stopped (at most 200). */
function drip(port: number, head: string): { readonly answer: Promise<string>; readonly stop: () => void } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  socket.write(head);
  let sent = 0;
  timer = setInterval(() => {
    if (socket.destroyed || sent >= 200) return clearInterval(timer);
    socket.write('x');
    sent += 1;
  }, 50);
  return {
    answer,
    stop: () => {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

const post = (credentials: string | undefined, length: number) =>
  `POST /customers.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${
    credentials === undefined ? '' : `Authorization: ${credentials}\r\n`
  }\r\n`;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const customerBody = (n: number) =>
  JSON.stringify({ customer: { first_name: `C${n}`, last_name: 'L', email: `c${n}@example.com` } });

describe('serve: no client can stall the others (issue 21 item 3)', () => {
  it('a body dripping in, with or without credentials, does not delay a normal request past a second', async () => {
    running = await startServer({ host: '127.0.0.1', port: 0, site: { apiKeys: [KEY] } });
    const { port, url } = running;
    const anonymous = drip(port, post(undefined, 10_000));
    const authorized = drip(port, post(auth, 10_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The anonymous one was answered 401 from its headers, its body unread, and its connection closed.
    const refused = await Promise.race([
      anonymous.answer,
      new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 2 s'), 2000)),
    ]);
    expect(refused).toMatch(/^HTTP\/1\.1 401 /);
    expect(refused.toLowerCase()).toContain('connection: close');
    for (let n = 1; n <= 3; n += 1) {
      const { value: response, ms } = await timed(() =>
        fetch(`${url}/customers.json`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: customerBody(n),
        }),
      );
      expect(response.status).toBe(201);
      expect(ms).toBeLessThan(1000);
      const read = await timed(() => fetch(`${url}/customers.json`, { headers: { authorization: auth } }));
      expect(read.value.status).toBe(200);
      expect(read.ms).toBeLessThan(1000);
    }
    authorized.stop();
    anonymous.stop();
  });

  it('a 401 is answered without reading the body, even a large declared one', async () => {
    running = await startServer({ host: '127.0.0.1', port: 0, site: { apiKeys: [KEY] } });
    const { value: response, ms } = await timed(() =>
      fetch(`${running?.url}/customers.json`, {
        method: 'POST',
        headers: { authorization: basicAuth('wrong:x'), 'content-type': 'application/json' },
        body: customerBody(1),
      }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="billing-core"');
    expect(await response.json()).toEqual({ errors: ['HTTP Basic: Access denied.'] });
    expect(ms).toBeLessThan(1000);
    expect(running.app.state().tables.customers.count).toBe(0);
  });
});

describe('node-http deadlines', () => {
  it('answers 408 when the body does not arrive within the body deadline, and serves others meanwhile', async () => {
    const server = createHttpServer(() => ({ status: 200, body: { fine: true } }), { bodyTimeoutMs: 400 });
    servers.push(server);
    const port = await listen(server, 0, '127.0.0.1');
    const slow = drip(port, post(undefined, 1000));
    const { value: other, ms } = await timed(() => fetch(`http://127.0.0.1:${port}/x.json`));
    expect(other.status).toBe(200);
    expect(ms).toBeLessThan(1000);
    const { value: answer, ms: waited } = await timed(() => slow.answer);
    slow.stop();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('did not arrive within 0.4 seconds');
    expect(waited).toBeLessThan(3000);
  });

  it('cuts a client that never finishes its headers (headersTimeout)', async () => {
    const server = createHttpServer(() => ({ status: 200, body: { fine: true } }), { headersTimeoutMs: 500 });
    servers.push(server);
    const port = await listen(server, 0, '127.0.0.1');
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    const closed = new Promise<void>((resolve) => {
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    socket.write('GET /x.json HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const { ms } = await timed(() =>
      Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 5000))]),
    );
    expect(socket.destroyed || received.length > 0).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3000);
  });
});
