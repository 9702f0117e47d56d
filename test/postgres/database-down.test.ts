/**
 * `serve --database-url` while PostgreSQL is unreachable: a change is answered 503 with Retry-After and
 * is not acknowledged, the process stays up, and once the database is back the site is loaded again
 * from what was committed, every acknowledged change in it and the refused one nowhere.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/store.js';
import { arr, basicAuth } from '../helpers/api.js';
import { type ServeProcess, startServe } from './cluster.js';
import { usePostgres } from './server.js';

const pg = usePostgres();
const KEY = 'down-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
let serving: ServeProcess | undefined;
afterAll(() => {
  serving?.child.kill('SIGKILL');
});

const create = (url: string, reference: string) =>
  fetch(`${url}/_sites/down/customers.json`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      customer: { first_name: 'D', last_name: reference, email: `${reference}@example.com`, reference },
    }),
  });

describe('serve --database-url when the database is unreachable', () => {
  it('answers 503 with Retry-After, acknowledges nothing it could not commit, and recovers', async () => {
    const store = await openPostgresStore(pg.pool());
    await store.createSite('down', { apiKeys: [KEY] });
    serving = await startServe(pg.server().url, ['--lease-ms', '1500']);
    expect((await create(serving.url, 'before')).status).toBe(201);

    pg.server().pause();
    const refused = await create(serving.url, 'during');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.stringify(await refused.json())).toContain('nothing was changed');
    // With the site dropped (it held a change never saved), loading it again needs the database too.
    const again = await fetch(`${serving.url}/_sites/down/customers.json`, { headers });
    expect(again.status).toBe(503);

    pg.server().resume();
    let after: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      after = await create(serving.url, 'after');
      if (after.status !== 503) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(after?.status).toBe(201);
    const listed = await fetch(`${serving.url}/_sites/down/customers.json?direction=asc`, { headers });
    const references = arr(await listed.json()).map((row) => JSON.stringify(row));
    expect(references.some((row) => row.includes('"before"'))).toBe(true);
    expect(references.some((row) => row.includes('"after"'))).toBe(true);
    expect(references.some((row) => row.includes('"during"'))).toBe(false);
    expect(serving.child.exitCode).toBeNull();
  });
});
