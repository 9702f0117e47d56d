/**
 * `billing-core serve --database-url` with `billing-core sites create|list`, against a real PostgreSQL:
 * requests reach their site by Host or by path prefix, each site with its own keys; a second process
 * forwards to the one holding a site; an idle site is released and then served by whichever process
 * asks; closing releases every site.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/store.js';
import { runCliProcess } from '../cli/spawn-cli.js';
import { basicAuth, num } from '../helpers/api.js';
import { createSites, requestWithHost, type ServeProcess, startServe } from './cluster.js';
import { usePostgres } from './server.js';

const pg = usePostgres();
const keyOf = (subdomain: string) => `key-${subdomain}`;
const auth = (subdomain: string) => ({ authorization: basicAuth(`${keyOf(subdomain)}:x`) });
const started: ServeProcess[] = [];
afterAll(() => {
  for (const each of started) each.child.kill('SIGKILL');
});

async function post(url: string, subdomain: string, path: string, body: unknown, key = subdomain) {
  const response = await fetch(`${url}/_sites/${subdomain}${path}`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown, headers: response.headers };
}

const customer = (reference: string) => ({
  customer: { first_name: 'A', last_name: reference, email: `${reference}@example.com`, reference },
});

async function row(subdomain: string) {
  const store = await openPostgresStore(pg.pool());
  return (await store.listSites()).find((each) => each.subdomain === subdomain);
}

async function eventually(check: () => Promise<boolean>, withinMs = 20_000): Promise<boolean> {
  for (const end = Date.now() + withinMs; Date.now() < end; ) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

describe('billing-core serve --database-url', () => {
  it('creates and lists sites, and routes requests to them by Host or path prefix', async () => {
    const url = pg.server().url;
    await createSites(url, ['alpha', 'beta'], keyOf);
    const again = await runCliProcess(['sites', 'create', 'alpha', '--database-url', url, '--api-key', 'k']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
    const noKey = await runCliProcess(['sites', 'create', 'gamma', '--database-url', url]);
    expect(noKey.code).toBe(2);
    const listed = await runCliProcess(['sites', 'list', '--database-url', url]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^alpha\t0\t0\t0\t-\t/m);
    expect(listed.stdout).toMatch(/^beta\t0\t0\t0\t-\t/m);

    const one = await startServe(url, ['--idle-ms', '8000', '--lease-ms', '3000']);
    started.push(one);
    const created = await post(one.url, 'alpha', '/customers.json', customer('a1'));
    expect(created.status).toBe(201);
    // Each site has its own keys and its own records.
    expect((await post(one.url, 'beta', '/customers.json', customer('b1'), 'alpha')).status).toBe(401);
    const byHost = await requestWithHost(
      one.url,
      'beta.example.test',
      'POST',
      '/customers.json',
      auth('beta'),
      customer('b1'),
    );
    expect(byHost.status).toBe(201);
    expect(num(byHost.body, 'customer', 'id')).toBe(1);
    const listedByHost = await requestWithHost(
      one.url,
      'alpha.example.test:443',
      'GET',
      '/customers.json',
      auth('alpha'),
    );
    expect(listedByHost.status).toBe(200);
    expect(JSON.stringify(listedByHost.body)).toContain('a1');
    expect(JSON.stringify(listedByHost.body)).not.toContain('b1');
    expect(
      (await requestWithHost(one.url, 'nowhere.example.test', 'GET', '/customers.json', {})).status,
    ).toBe(404);
    expect((await fetch(`${one.url}/customers.json`)).status).toBe(404);

    // A second process forwards what it receives for a site the first one holds.
    const two = await startServe(url, ['--idle-ms', '8000', '--lease-ms', '3000']);
    started.push(two);
    const holder = (await row('alpha'))?.owner;
    expect(holder).toMatch(/^[0-9a-f-]{36}$/);
    const forwarded = await post(two.url, 'alpha', '/customers.json', customer('a2'));
    expect(forwarded.status).toBe(201);
    expect(num(forwarded.body, 'customer', 'id')).toBe(2);
    expect(await row('alpha')).toMatchObject({ position: 2, epoch: 1, owner: holder });

    // Idle, alpha is released (snapshotted), and the second process then takes it when asked.
    expect(await eventually(async () => (await row('alpha'))?.owner === null)).toBe(true);
    expect(await row('alpha')).toMatchObject({ position: 2, snapshotPosition: 2, epoch: 1 });
    expect((await post(two.url, 'alpha', '/customers.json', customer('a3'))).status).toBe(201);
    const taken = await row('alpha');
    expect(taken).toMatchObject({ position: 3, snapshotPosition: 2, epoch: 2 });
    expect(taken?.owner).not.toBe(holder);

    for (const each of [one, two]) each.child.kill('SIGTERM');
    for (const each of [one, two]) expect((await each.exited).code).toBe(0);
    const closed = await runCliProcess(['sites', 'list', '--database-url', url]);
    expect(closed.stdout).toMatch(/^alpha\t3\t3\t2\t-\t/m);
    expect(closed.stdout).toMatch(/^beta\t1\t1\t1\t-\t/m);
  });
});
