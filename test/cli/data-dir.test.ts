import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type SiteFetchHandler } from '../../src/adapters/fetch.js';
import { openStore, type Store } from '../../src/cli/data-dir.js';
import { encodeRecord, type JournalEntry, scanJournal, segmentName } from '../../src/cli/journal.js';
import { deltaFiles, SNAPSHOT_FILE } from '../../src/cli/snapshot.js';
import { basicAuth, num } from '../helpers/api.js';
import { createCustomer as postCustomer } from './site-requests.js';

const KEY = 'journal-key';
const site = { apiKeys: [KEY], timeZone: 'UTC' };
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-data-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (seq: number): JournalEntry => ({
  seq,
  kind: 'request',
  now: '2026-01-01T00:00:00Z',
  request: { method: 'POST', path: '/customers.json', body: `{"n":${seq}}` },
});

describe('journal records', () => {
  it('round-trip; only a last record cut short is torn, a complete record with a bad checksum is damage', () => {
    // Issue 21 item 2: damage is never silent, wherever it is.
    const records = [0, 1, 2].map((seq) => encodeRecord(entry(seq)));
    const whole = Buffer.concat(records);
    const entries = (scan: ReturnType<typeof scanJournal>) => scan.records.map((record) => record.entry);
    const all = scanJournal(whole);
    expect(entries(all)).toEqual([entry(0), entry(1), entry(2)]);
    expect(all).toMatchObject({ goodBytes: whole.length, torn: false });
    expect(all.damage).toBeUndefined();

    const goodTwo = (records[0]?.length ?? 0) + (records[1]?.length ?? 0);
    for (const cut of [goodTwo + 1, goodTwo + 12, whole.length - 1]) {
      const scan = scanJournal(whole.subarray(0, cut));
      expect(entries(scan)).toEqual([entry(0), entry(1)]);
      expect(scan).toMatchObject({ goodBytes: goodTwo, torn: true });
      expect(scan.damage).toBeUndefined();
    }
    const flipped = Buffer.from(whole);
    flipped[goodTwo - 3] = 0x30;
    const first = records[0]?.length ?? 0;
    expect(scanJournal(flipped)).toMatchObject({
      goodBytes: first,
      torn: false,
      damage: { offset: first, end: goodTwo, reason: 'a bad checksum or content' },
    });
    const lastFlipped = Buffer.from(whole);
    lastFlipped[whole.length - 3] = 0x30;
    expect(scanJournal(lastFlipped)).toMatchObject({
      goodBytes: goodTwo,
      torn: false,
      damage: { offset: goodTwo, end: whole.length },
    });
    // Garbage with no record shape at the end is damage too, not a torn write.
    expect(scanJournal(Buffer.concat([whole, Buffer.from('garbage')])).damage).toMatchObject({
      offset: whole.length,
    });
  });
});

async function open(
  snapshotEvery?: number,
): Promise<{ store: Store; app: SiteFetchHandler; warnings: string[] }> {
  const warnings: string[] = [];
  const opened = await openStore(dir, {
    site,
    warn: (message) => warnings.push(message),
    ...(snapshotEvery === undefined ? {} : { snapshotEvery }),
  });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.value;
  const app = createFetchHandler({
    state: store.state,
    now: () => '2026-02-01T00:00:00Z',
    commit: store.commit,
  });
  return { store, app, warnings };
}

const createCustomer = (app: SiteFetchHandler, n: number) => postCustomer(app, headers, n);

const journalFiles = async () => (await readdir(dir)).filter((name) => name.startsWith('journal-')).sort();

/** Waits (up to 10 s) until a snapshot at `position` has rotated the journal to its segment alone. */
async function journalRotatedTo(position: number): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const files = await journalFiles();
    if (files.length === 1 && files[0] === segmentName(position)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no snapshot at ${position}: ${(await journalFiles()).join(', ')}`);
}

describe('the data directory', () => {
  it('replays the journal on opening, keeps no credentials on disk, and ignores unchanged requests', async () => {
    const first = await open();
    for (const n of [1, 2, 3]) expect((await createCustomer(first.app, n)).status).toBe(201);
    expect((await first.app(new Request('http://localhost/customers.json', { headers }))).status).toBe(200);
    await first.store.close();
    const [journal] = await journalFiles();
    const text = await readFile(join(dir, journal ?? ''), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(3);
    expect(text).not.toContain(headers.authorization.slice(6));

    const second = await open();
    expect(second.store.state).toEqual(first.app.state());
    expect(second.warnings).toEqual([]);
    await second.store.close();
  });

  it('drops a torn last record with a warning, and appends cleanly after it', async () => {
    const first = await open();
    for (const n of [1, 2]) await createCustomer(first.app, n);
    await first.store.close();
    const [journal] = await journalFiles();
    const path = join(dir, journal ?? '');
    const partial = encodeRecord(entry(2)).subarray(0, 40);
    await appendFile(path, partial);

    const second = await open();
    expect(second.store.state).toEqual(first.app.state());
    const cut = (await readFile(path)).length + partial.length;
    expect(second.warnings).toEqual([
      `dropped a torn record (never acknowledged) at the end of ${path}, byte ${cut - partial.length}`,
    ]);
    expect((await createCustomer(second.app, 3)).status).toBe(201);
    await second.store.close();

    const third = await open();
    expect(third.warnings).toEqual([]);
    expect(third.store.state).toEqual(second.app.state());
    expect(third.store.state.tables.customers.count).toBe(3);
    await third.store.close();
  });

  it('refuses to open a journal damaged before its last record', async () => {
    const first = await open();
    for (const n of [1, 2, 3]) await createCustomer(first.app, n);
    await first.store.close();
    const [journal] = await journalFiles();
    const path = join(dir, journal ?? '');
    const bytes = await readFile(path);
    bytes[20] = bytes[20] === 0x41 ? 0x42 : 0x41;
    await writeFile(path, bytes);
    const reopened = await openStore(dir, { site });
    expect(reopened.ok).toBe(false);
    expect(reopened.ok ? '' : reopened.error).toContain(`damaged journal: ${path} at byte 0, record 0`);
  });

  it('snapshots every so many records, rotating the journal and deleting what the snapshot covers', async () => {
    const first = await open(3);
    for (const n of [1, 2, 3]) expect((await createCustomer(first.app, n)).status).toBe(201);
    // On a busy machine the snapshot of record 3 can still be under way when records 6 and 7 come, and
    // then none follows: wait for it, so that the next one falls due at record 6 as designed.
    await journalRotatedTo(3);
    for (const n of [4, 5, 6, 7]) expect((await createCustomer(first.app, n)).status).toBe(201);
    // Let the background snapshot of record 6 finish before looking at the files.
    await first.store.close();
    // The newest snapshot file's trailer, its last line, says which journal records it covers: after
    // the full snapshot made with the directory, the later ones are deltas.
    const newest = (await deltaFiles(dir)).at(-1)?.name ?? SNAPSHOT_FILE;
    expect(newest).not.toBe(SNAPSHOT_FILE);
    const header: unknown = JSON.parse(
      (await readFile(join(dir, newest), 'utf8')).trimEnd().split('\n').at(-1) ?? '',
    );
    // Snapshots are due after records 3 and 6; one still being written when the next falls due is
    // followed by the next record's instead.
    const position = num(header, 'position');
    expect([6, 7]).toContain(position);
    expect(await journalFiles()).toEqual([segmentName(position)]);
    const rest = await readFile(join(dir, segmentName(position)));
    expect(scanJournal(rest)).toMatchObject({ records: { length: 7 - position }, torn: false });

    const second = await open(3);
    expect(second.store.state).toEqual(first.app.state());
    await second.store.close(second.app.state());
    expect(await journalFiles()).toEqual(['journal-000000000007.log']);
    const third = await open(3);
    expect(third.store.state).toEqual(first.app.state());
    await third.store.close();
  });

  it('keeps the site it was created with, and the latest test clock move', async () => {
    const first = await open();
    first.store.recordClock('2026-05-01T00:00:00.000Z');
    await first.store.close();
    const opened = await openStore(dir, { site: { apiKeys: ['other'], timeZone: 'Asia/Tokyo' } });
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.value.state.settings.apiKeys).toEqual([KEY]);
    expect(opened.value.clock).toBe('2026-05-01T00:00:00.000Z');
    await opened.value.close();
  });
});
