import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type SiteFetchHandler } from '../../src/adapters/fetch.js';
import { openStore, type Store } from '../../src/cli/data-dir.js';
import { type FileLayer, nodeFiles } from '../../src/cli/files.js';
import { segmentName } from '../../src/cli/journal.js';
import { deltaFiles, SNAPSHOT_FILE, writeSnapshot } from '../../src/cli/snapshot.js';
import { createSite, handle, type SiteState } from '../../src/index.js';
import { basicAuth } from '../helpers/api.js';
import { createCustomer as postCustomer } from './site-requests.js';

const KEY = 'delta-key';
const site = { apiKeys: [KEY], timeZone: 'UTC', portalSecret: 'a-private-secret-for-tests' };
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const NOW = '2026-02-01T00:00:00Z';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-deltas-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A directory whose snapshot holds `customers` customers (several chunks of rows), journal empty. */
async function seeded(customers: number): Promise<void> {
  let state: SiteState = createSite(site);
  for (let n = 1; n <= customers; n += 1) {
    const result = handle(
      state,
      {
        method: 'POST',
        path: '/customers.json',
        headers: { authorization: headers.authorization },
        body: { customer: { first_name: `C${n}`, last_name: 'L', email: `c${n}@example.com` } },
      },
      { now: NOW },
    );
    if (result.response.status !== 201) throw new Error(`seeding answered ${result.response.status}`);
    state = result.state;
  }
  await writeSnapshot(dir, { position: 0, state });
  await writeFile(join(dir, segmentName(0)), '');
}

const warnings: string[] = [];

/**
 * Files as Node reads them past 2 GiB: a snapshot or delta can never be read in one buffer (a site of a
 * million subscriptions writes several GiB), so no snapshot file may be.
 */
const noWholeSnapshots: FileLayer = {
  ...nodeFiles,
  readFile: (path) =>
    /snapshot/.test(path)
      ? Promise.reject(new RangeError(`${path}: File size is greater than 2 GiB`))
      : nodeFiles.readFile(path),
};

async function open(
  snapshotEvery: number,
  files: FileLayer = nodeFiles,
): Promise<{ store: Store; app: SiteFetchHandler }> {
  const opened = await openStore(dir, {
    site,
    snapshotEvery,
    files,
    warn: (message) => warnings.push(message),
  });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.value;
  const app = createFetchHandler({ state: store.state, now: () => NOW, commit: store.commit });
  return { store, app };
}

const rename = (app: SiteFetchHandler, id: number, n: number) =>
  app(
    new Request(`http://localhost/customers/${id}.json`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ customer: { organization: `Org ${n}` } }),
    }),
  );

const createCustomer = (app: SiteFetchHandler, n: number) => postCustomer(app, headers, n);

/** Waits (up to 10 s) until the snapshot at `position` is written and the journal before it deleted. */
async function snapshotted(position: number): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const journal = (await readdir(dir)).filter((name) => name.startsWith('journal-'));
    if (journal.length === 1 && journal[0] === segmentName(position)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no snapshot at ${position}: ${(await readdir(dir)).join(', ')}; ${warnings.join('; ')}`);
}

const sizeOf = async (name: string) => (await stat(join(dir, name))).size;

describe('incremental snapshots', () => {
  it('later snapshots write only the rows that changed; a restart reads the full one and its deltas back', async () => {
    await seeded(2500);
    const first = await open(2);
    for (const [n, id] of [7, 1500, 2400, 3, 999, 2001].entries())
      expect((await rename(first.app, id, n)).status).toBe(200);
    await first.store.close(first.app.state());

    const deltas = await deltaFiles(dir);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    const base = await sizeOf(SNAPSHOT_FILE);
    for (const delta of deltas) expect(await sizeOf(delta.name)).toBeLessThan(base / 20);
    // Each delta names where it goes from and to; the journal keeps only what the last one does not hold.
    const last = deltas.at(-1);
    expect(last?.position).toBe(6);
    expect((await readdir(dir)).filter((name) => name.startsWith('journal-'))).toEqual([segmentName(6)]);

    const second = await open(2);
    expect(second.store.state).toEqual(first.app.state());
    expect(JSON.stringify(second.store.state)).toBe(JSON.stringify(first.app.state()));
    await second.store.close();
  });

  it('a table that opens a chunk between two snapshots gives a delta of its new rows, not of the table', async () => {
    await seeded(998);
    const first = await open(4);
    for (let n = 0; n < 8; n += 1) expect((await createCustomer(first.app, 2000 + n)).status).toBe(201);
    await first.store.close(first.app.state());
    const deltas = await deltaFiles(dir);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    const base = await sizeOf(SNAPSHOT_FILE);
    for (const delta of deltas) expect(await sizeOf(delta.name)).toBeLessThan(base / 20);
    const second = await open(4);
    expect(JSON.stringify(second.store.state)).toBe(JSON.stringify(first.app.state()));
    await second.store.close();
  });

  it('keeps a chain of more than 32 small deltas while they weigh less than half the full snapshot', async () => {
    await seeded(1500);
    const first = await open(1);
    for (let n = 0; n < 40; n += 1) {
      expect((await rename(first.app, 1 + ((n * 37) % 1500), n)).status).toBe(200);
      await snapshotted(n + 1);
    }
    await first.store.close();
    expect((await deltaFiles(dir)).length).toBe(40);
    const second = await open(1);
    expect(JSON.stringify(second.store.state)).toBe(JSON.stringify(first.app.state()));
    await second.store.close();
  });

  it('snapshots and deltas are written, verified and read back in slices, never as one buffer of the file', async () => {
    await seeded(1500);
    const first = await open(2, noWholeSnapshots);
    for (const [n, id] of [7, 1400, 3, 999].entries())
      expect((await rename(first.app, id, n)).status).toBe(200);
    await first.store.close(first.app.state());
    expect((await deltaFiles(dir)).length).toBeGreaterThanOrEqual(1);
    const second = await open(2, noWholeSnapshots);
    expect(JSON.stringify(second.store.state)).toBe(JSON.stringify(first.app.state()));
    await second.store.close();
  });

  it('a damaged delta, or one missing between two others, refuses to open and names the file', async () => {
    await seeded(1200);
    const first = await open(1);
    for (const [n, id] of [5, 600, 1100].entries()) {
      expect((await rename(first.app, id, n)).status).toBe(200);
      await snapshotted(n + 1);
    }
    await first.store.close(first.app.state());
    const deltas = await deltaFiles(dir);
    expect(deltas.map((delta) => delta.position)).toEqual([1, 2, 3]);

    const middle = join(dir, deltas[1]?.name ?? '');
    const bytes = await readFile(middle);
    const flipped = Buffer.from(bytes);
    flipped[10] = flipped[10] === 0x31 ? 0x32 : 0x31;
    await writeFile(middle, flipped);
    const damaged = await openStore(dir, { site });
    expect(damaged.ok ? '' : damaged.error).toContain(`${middle} is damaged`);

    await rm(middle);
    const gap = await openStore(dir, { site });
    expect(gap.ok ? '' : gap.error).toContain('a delta is missing');

    await writeFile(middle, bytes);
    const whole = await open(1);
    expect(whole.store.state).toEqual(first.app.state());
    await whole.store.close();
  });

  it('once the deltas grow past half the full snapshot a full one replaces them; one it covers is passed over', async () => {
    await seeded(3);
    const first = await open(1);
    for (let n = 0; n < 40; n += 1) {
      expect((await rename(first.app, 1 + (n % 3), n)).status).toBe(200);
      await snapshotted(n + 1);
    }
    await first.store.close(first.app.state());
    const trailer = JSON.parse(
      (await readFile(join(dir, SNAPSHOT_FILE), 'utf8')).trimEnd().split('\n').at(-1) ?? '',
    );
    // A small site: its deltas soon weigh half of it, so full snapshots came again on the way.
    expect(trailer.position).toBeGreaterThan(0);
    for (const delta of await deltaFiles(dir)) expect(delta.position).toBeGreaterThan(trailer.position);

    // A delta left behind by a crash between a full snapshot and the deletion of what it covers.
    await writeFile(join(dir, 'snapshot-delta.0000000000000000.jsonl'), 'not even a delta\n');
    const second = await open(1);
    expect(second.store.state).toEqual(first.app.state());
    await second.store.close();
  });
});
