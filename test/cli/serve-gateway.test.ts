/**
 * `serve --gateway <module>` (issue 25 item 1): a real, asynchronous payment processor behind the server.
 * Requests wait for the processor in turn, so each sees the site the payment left. The journal keeps the
 * processor's answers, so a restart replays them rather than asking anything again: a server restarted
 * without the processor rebuilds the very same site.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { openStore } from '../../src/cli/data-dir.js';
import { type RunningServer, serveOptions, startServer } from '../../src/cli/serve.js';
import type { AsyncPaymentGateway } from '../../src/index.js';
import { cardAttributes } from '../helpers/api.js';

const KEY = 'gateway-key';
const json = {
  Authorization: `Basic ${Buffer.from(`${KEY}:x`).toString('base64')}`,
  'Content-Type': 'application/json',
};
const NOW = '2026-03-02T10:00:00Z';

// Unlike the test gateway, this processor takes a card ending in 3, after a delay as over a network.
const PROCESSOR = `
export default async function charge(attempt) {
  await new Promise((resolve) => setTimeout(resolve, 30));
  if (attempt.paymentProfile.lastFour === '1113')
    return { success: true, gatewayTransactionId: 'ch_' + attempt.idempotencyKey.split('/').length };
  return { success: false, message: 'Declined by the module' };
}
`;

let dir = '';
let running: RunningServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-gateway-'));
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function serve(args: readonly string[]): Promise<RunningServer> {
  const options = await serveOptions(['--api-key', KEY, '--port', '0', '--now', NOW, ...args]);
  if (!options.ok) throw new Error(options.error);
  running = await startServer(options.value);
  return running;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) });

describe('serve --gateway', () => {
  it('charges through the module, and lets the next request see the site its payment left', async () => {
    const gateway = join(dir, 'processor.mjs');
    await writeFile(gateway, PROCESSOR);
    const data = join(dir, 'data');
    const server = await serve(['--gateway', gateway, '--data-dir', data]);
    const family = await post(`${server.url}/product_families.json`, { product_family: { name: 'Tools' } });
    expect(family.status).toBe(201);
    const product = await post(`${server.url}/product_families/1/products.json`, {
      product: { name: 'Pro', handle: 'pro', price_in_cents: 2500, interval: 1, interval_unit: 'month' },
    });
    expect(product.status).toBe(201);

    // Sent together: the list must wait for the signup's payment, and then show its subscription.
    const signup = post(`${server.url}/subscriptions.json`, {
      subscription: {
        product_handle: 'pro',
        customer_attributes: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        credit_card_attributes: cardAttributes(3),
      },
    });
    const list = fetch(`${server.url}/subscriptions.json`, { headers: json });
    const [signed, listed] = await Promise.all([signup, list]);
    expect(signed.status).toBe(201);
    const body = (await signed.json()) as { subscription: { id: number; state: string } };
    expect(body.subscription.state).toBe('active');
    expect(((await listed.json()) as unknown[]).length).toBe(1);

    const declined = await post(`${server.url}/subscriptions.json`, {
      subscription: {
        product_handle: 'pro',
        customer_attributes: { first_name: 'Bo', last_name: 'B', email: 'bo@example.com' },
        credit_card_attributes: cardAttributes(1),
      },
    });
    expect(declined.status).toBe(422);
    expect(JSON.stringify(await declined.json())).toContain('Declined by the module');
  });

  it('journals the answers of the processor, so that a replay without the processor rebuilds the same site', async () => {
    const opened = await openStore(dir, { site: { apiKeys: [KEY] }, warn: () => {} });
    if (!opened.ok) throw new Error(opened.error);
    const takesCardThree: AsyncPaymentGateway = async (attempt) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return attempt.paymentProfile.lastFour === '1113'
        ? { success: true, gatewayTransactionId: 'ch_1' }
        : { success: false, message: 'Declined by the processor' };
    };
    const app = createFetchHandler({
      state: opened.value.state,
      now: () => NOW,
      commit: opened.value.commit,
      payments: takesCardThree,
    });
    const send = (path: string, body: unknown) =>
      app(
        new Request(`http://localhost${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) }),
      );
    expect((await send('/product_families.json', { product_family: { name: 'Tools' } })).status).toBe(201);
    const product = { name: 'Pro', handle: 'pro', price_in_cents: 2500, interval: 1, interval_unit: 'month' };
    expect((await send('/product_families/1/products.json', { product })).status).toBe(201);
    const signed = await send('/subscriptions.json', {
      subscription: {
        product_handle: 'pro',
        customer_attributes: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        credit_card_attributes: cardAttributes(3),
      },
    });
    expect(signed.status).toBe(201);
    // Closed without a snapshot, as after a crash: the next open replays the journal.
    await opened.value.close();
    const journal = (await readdir(dir)).filter((name) => name.startsWith('journal-'));
    const text = (await Promise.all(journal.map((name) => readFile(join(dir, name), 'utf8')))).join('');
    expect(text).toContain('"payments":[{"idempotencyKey":');
    expect(text).toContain('"gatewayTransactionId":"ch_1"');

    // The test gateway would decline the card ending in 3; the journal's answers are what count.
    const reopened = await openStore(dir, { site: { apiKeys: [KEY] }, warn: () => {} });
    if (!reopened.ok) throw new Error(reopened.error);
    expect(JSON.stringify(reopened.value.state)).toBe(JSON.stringify(app.state()));
    await reopened.value.close();
  });

  it('refuses a module without a function as its default export, or one that does not load', async () => {
    const empty = join(dir, 'empty.mjs');
    await writeFile(empty, 'export const charge = 1;\n');
    const refused = await serveOptions(['--api-key', KEY, '--gateway', empty]);
    expect(refused).toEqual({
      ok: false,
      error: `--gateway ${empty} must export a function as its default export`,
    });
    const missing = await serveOptions(['--api-key', KEY, '--gateway', join(dir, 'absent.mjs')]);
    expect(missing.ok).toBe(false);
    expect(missing.ok ? '' : missing.error).toMatch(/^cannot load --gateway /);
  });
});
