/**
 * Durability of `billing-core serve --data-dir`: the real program is killed (SIGKILL) in the middle of
 * a burst of requests and started again on the same directory. Every acknowledged change is there, and
 * nothing else is, but whole requests that were sent.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, basicAuth, num, str } from '../helpers/api.js';
import { finished, startCliDirect, waitForLine } from './spawn-cli.js';

const KEY = 'crash-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-crash-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const serveArgs = () => [
  'serve',
  '--port',
  '0',
  '--api-key',
  KEY,
  '--now',
  '2026-01-01T00:00:00Z',
  '--data-dir',
  dir,
  '--snapshot-every',
  '25',
];

async function listCustomers(url: string): Promise<unknown[]> {
  const all: unknown[] = [];
  for (let page = 1; ; page += 1) {
    const response = await fetch(`${url}/customers.json?per_page=200&page=${page}`, { headers });
    expect(response.status).toBe(200);
    const rows = arr(await response.json());
    all.push(...rows);
    if (rows.length < 200) return all;
  }
}

describe('billing-core serve --data-dir after SIGKILL', () => {
  it('keeps every acknowledged change and only whole requests', async () => {
    const child = startCliDirect(serveArgs());
    const done = finished(child);
    const [, url] = await waitForLine(child, LISTENING);
    const sent = new Set<string>();
    const acknowledged = new Map<number, string>();
    let killed = false;
    const worker = async (index: number) => {
      for (let i = 0; !killed; i += 1) {
        const reference = `w${index}-${i}`;
        sent.add(reference);
        const customer = {
          first_name: 'Crash',
          last_name: reference,
          email: `${reference}@example.com`,
          reference,
        };
        try {
          const response = await fetch(`${url}/customers.json`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ customer }),
          });
          const body: unknown = await response.json();
          expect(response.status).toBe(201);
          acknowledged.set(num(body, 'customer', 'id'), reference);
        } catch (error) {
          if (!killed) throw error;
        }
        if (acknowledged.size >= 120 && !killed) {
          killed = true;
          // One more request on its way as the server dies, whatever the other workers' timing.
          sent.add('in-flight');
          const inFlight = {
            first_name: 'Crash',
            last_name: 'in-flight',
            email: 'in-flight@example.com',
            reference: 'in-flight',
          };
          fetch(`${url}/customers.json`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ customer: inFlight }),
          })
            .then(async (response) => {
              if (response.status === 201)
                acknowledged.set(num(await response.json(), 'customer', 'id'), 'in-flight');
            })
            .catch(() => undefined);
          child.kill('SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    expect((await done).code).toBeNull();
    // Other workers had requests in flight when the server died.
    expect(sent.size).toBeGreaterThan(acknowledged.size);

    const restarted = startCliDirect(serveArgs());
    const restartedDone = finished(restarted);
    try {
      const [, again] = await waitForLine(restarted, LISTENING);
      const customers = await listCustomers(again ?? '');
      const stored = new Map(
        customers.map((row) => [num(row, 'customer', 'id'), str(row, 'customer', 'reference')]),
      );
      for (const [id, reference] of acknowledged) expect(stored.get(id)).toBe(reference);
      // Ids run 1..n without holes, and each stored customer is one request that was sent, whole.
      expect([...stored.keys()].sort((a, b) => a - b)).toEqual(
        stored.size === 0 ? [] : Array.from({ length: stored.size }, (_, i) => i + 1),
      );
      for (const row of customers) {
        expect(sent.has(str(row, 'customer', 'reference'))).toBe(true);
        expect(str(row, 'customer', 'email')).toBe(`${str(row, 'customer', 'reference')}@example.com`);
      }
      const created = await fetch(`${again}/customers.json`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          customer: { first_name: 'After', last_name: 'Restart', email: 'after@example.com' },
        }),
      });
      expect(num(await created.json(), 'customer', 'id')).toBe(stored.size + 1);
    } finally {
      restarted.kill('SIGTERM');
    }
    const result = await restartedDone;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^(billing-core serve: dropped a torn record at the end of \S+\n)?$/);
  }, 60_000);
});
