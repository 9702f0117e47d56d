/**
 * Concurrency: a few thousand mixed requests from several clients on loopback against a journaled
 * server. Nothing is lost, and the final state equals a sequential replay of the journal.
 */

import { cp, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/cli/data-dir.js';
import { startServer } from '../../src/cli/serve.js';
import { tableRows } from '../../src/kernel/collection.js';
import { basicAuth, num } from '../helpers/api.js';

const KEY = 'load-key';
const SITE = { apiKeys: [KEY], timeZone: 'UTC' };
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const CLIENTS = 8;
const REQUESTS_PER_CLIENT = 375;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Tally {
  customers: string[];
  subscriptions: number[];
  invoices: number;
  reads: number;
}

/** One request over a keep-alive connection (node:http is far lighter than fetch for the client side). */
function send(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request({ agent, host: url.hostname, port: url.port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const card = { full_number: '4111111111111111', expiration_month: 1, expiration_year: 2040 };

/** One client: creates customers and subscriptions, reads, bills ad hoc invoices on its subscriptions. */
async function client(agent: Agent, url: URL, index: number, tally: Tally): Promise<void> {
  const mine: number[] = [];
  for (let i = 0; i < REQUESTS_PER_CLIENT; i += 1) {
    const reference = `c${index}-${i}`;
    const person = {
      first_name: `C${index}`,
      last_name: `N${i}`,
      email: `${reference}@example.com`,
      reference,
    };
    const subscription = mine.at(-1);
    // Of every 16: a subscription, an ad hoc invoice, 6 reads, 8 new customers.
    const kind = i % 16;
    if (kind === 1) {
      const body = {
        subscription: { product_handle: 'basic', customer_attributes: person, credit_card_attributes: card },
      };
      const created = await send(agent, url, 'POST', '/subscriptions.json', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      mine.push(num(created.body, 'subscription', 'id'));
      tally.subscriptions.push(num(created.body, 'subscription', 'id'));
      tally.customers.push(reference);
    } else if (kind === 9 && subscription !== undefined) {
      const body = {
        invoice: { line_items: [{ title: `Work ${reference}`, quantity: 2, unit_price: '12.50' }] },
      };
      const created = await send(agent, url, 'POST', `/subscriptions/${subscription}/invoices.json`, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      tally.invoices += 1;
    } else if (kind % 2 === 0 && kind >= 4) {
      const path = kind === 4 ? '/customers.json?per_page=5' : `/subscriptions/${subscription ?? 1}.json`;
      expect([200, 404]).toContain((await send(agent, url, 'GET', path)).status);
      tally.reads += 1;
    } else {
      const created = await send(agent, url, 'POST', '/customers.json', { customer: person });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      tally.customers.push(reference);
    }
  }
}

describe('serve under concurrent load', () => {
  it('applies thousands of mixed requests from several clients without losing any, as a replay of its journal', async () => {
    // No snapshot during the run, so the journal alone rebuilds the whole site.
    const running = await startServer({
      host: '127.0.0.1',
      port: 0,
      site: SITE,
      dataDir: dir,
      snapshotEvery: 1_000_000,
    });
    try {
      const family = await fetch(`${running.url}/product_families.json`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ product_family: { name: 'Plans', handle: 'plans' } }),
      });
      expect(family.status).toBe(201);
      const product = await fetch(`${running.url}/product_families/handle:plans/products.json`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          product: {
            name: 'Basic',
            handle: 'basic',
            price_in_cents: 1000,
            interval: 1,
            interval_unit: 'month',
          },
        }),
      });
      expect(product.status).toBe(201);

      const tally: Tally = { customers: [], subscriptions: [], invoices: 0, reads: 0 };
      const started = performance.now();
      const cpu = process.cpuUsage();
      const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
      const url = new URL(running.url);
      await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(agent, url, index, tally)));
      agent.destroy();
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = process.cpuUsage(cpu).user / 1e6;
      expect(tally.customers.length + tally.invoices + tally.reads).toBe(CLIENTS * REQUESTS_PER_CLIENT);

      const state = running.app.state();
      const references = [...tableRows(state.tables.customers)].map((customer) => customer.reference);
      expect(references.sort()).toEqual([...tally.customers].sort());
      expect(state.tables.subscriptions.count).toBe(tally.subscriptions.length);
      expect(new Set(tally.subscriptions).size).toBe(tally.subscriptions.length);
      const adHoc = [...tableRows(state.tables.invoices)].filter((invoice) => invoice.role === 'adhoc');
      expect(adHoc).toHaveLength(tally.invoices);

      // Every response waited for its journal flush, so a copy taken now holds every change.
      const copy = `${dir}-copy`;
      await cp(dir, copy, { recursive: true });
      try {
        const replayed = await openStore(copy, { site: {} });
        if (!replayed.ok) throw new Error(replayed.error);
        expect(replayed.value.state).toEqual(state);
        await replayed.value.close();
      } finally {
        await rm(copy, { recursive: true, force: true });
      }
      console.info(
        `load: ${CLIENTS * REQUESTS_PER_CLIENT} requests from ${CLIENTS} clients in ${seconds.toFixed(2)} s, ${cpuSeconds.toFixed(2)} s CPU`,
      );
    } finally {
      await running.close();
    }
  }, 60_000);
});
