/**
 * Issue 21 items 1 and 2: a full disk loses nothing acknowledged, and damage is never silent. The
 * injected faults always run; the small tmpfs runs where the test may mount one (root on Linux).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type SiteFetchHandler } from '../../src/adapters/fetch.js';
import { type DataDirOptions, openStore, type Store } from '../../src/cli/data-dir.js';
import { segmentName } from '../../src/cli/journal.js';
import { SNAPSHOT_FILE, writeSnapshot } from '../../src/cli/snapshot.js';
import { tableRows } from '../../src/kernel/collection.js';
import { basicAuth } from '../helpers/api.js';
import { everyFile, type FaultMode, faultyFiles, journalFilesOnly, snapshotOnly } from './faulty-files.js';

const KEY = 'fault-key';
const site = { apiKeys: [KEY], timeZone: 'UTC' };
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-faults-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(
  options: Partial<DataDirOptions> = {},
  at = dir,
): Promise<{ store: Store; app: SiteFetchHandler; warnings: string[] }> {
  const warnings: string[] = [];
  const opened = await openStore(at, { site, warn: (message) => warnings.push(message), ...options });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.value;
  const app = createFetchHandler({
    state: store.state,
    now: () => '2026-02-01T00:00:00Z',
    commit: store.commit,
  });
  return { store, app, warnings };
}

const email = (n: number) => `c${n}@example.com`;
const createCustomer = (app: SiteFetchHandler, n: number) =>
  app(
    new Request('http://localhost/customers.json', {
      method: 'POST',
      headers,
      body: JSON.stringify({ customer: { first_name: `C${n}`, last_name: 'L', email: email(n) } }),
    }),
  );

const emails = (store: Store) =>
  [...tableRows(store.state.tables.customers)].map((customer) => customer.email);

/** Sends `count` creations one after another; the numbers answered 201, and every status seen. */
async function fill(
  app: SiteFetchHandler,
  count: number,
  from = 1,
): Promise<{ acked: number[]; statuses: number[] }> {
  const acked: number[] = [];
  const statuses: number[] = [];
  for (let n = from; n < from + count; n += 1) {
    const status = (await createCustomer(app, n)).status;
    statuses.push(status);
    if (status === 201) acked.push(n);
  }
  return { acked, statuses };
}

describe('a full disk loses nothing acknowledged (issue 21 item 1)', () => {
  const journalCases: [number, FaultMode][] = [];
  for (const budget of [0, 1, 150, 333, 700, 1234, 2000]) journalCases.push([budget, 'enospc']);
  for (const budget of [0, 420, 999]) journalCases.push([budget, 'zero']);

  it.each(journalCases)(
    'journal space for %i bytes (%s): 201s until it fills, then 503s; a restart has every 201',
    async (budget, mode) => {
      const files = faultyFiles(budget, journalFilesOnly, mode);
      const first = await open({ files, snapshotEvery: 1000 });
      const { acked, statuses } = await fill(first.app, 12);
      // Nothing is acknowledged after the first failure, reads included (the state may hold the failed change).
      const firstFailure = statuses.indexOf(503);
      expect(firstFailure).toBeGreaterThanOrEqual(0);
      expect(statuses.slice(firstFailure).every((status) => status === 503)).toBe(true);
      expect(statuses.slice(0, firstFailure).every((status) => status === 201)).toBe(true);
      expect(first.store.failure()?.message).toMatch(/ENOSPC/);
      expect(files.faults()).toBeGreaterThan(0);
      await first.store.close(first.app.state());

      const second = await open();
      expect(second.warnings).toEqual([]);
      expect(emails(second.store)).toEqual(acked.map(email));
      // With space again, it serves on and keeps the new writes too.
      const more = await fill(second.app, 2, 100);
      expect(more.acked).toEqual([100, 101]);
      await second.store.close(second.app.state());
      const third = await open();
      expect(emails(third.store)).toEqual([...acked, 100, 101].map(email));
      await third.store.close();
    },
  );

  it.each([0, 1, 100, 5000] as const)(
    'a snapshot cut short at byte %i never replaces the good one, nor deletes what it would cover',
    async (budget) => {
      const files = faultyFiles(budget, snapshotOnly);
      files.heal();
      const first = await open({ files, snapshotEvery: 3 });
      const good = await readFile(join(dir, SNAPSHOT_FILE));
      // The disk fills after the directory was made.
      const limited = faultyFiles(budget, snapshotOnly);
      await first.store.close();
      const second = await open({ files: limited, snapshotEvery: 3 });
      const { acked, statuses } = await fill(second.app, 8);
      expect(statuses.every((status) => status === 201)).toBe(true);
      // The final snapshot fails too, and says so; the journal still holds every change.
      await expect(second.store.close(second.app.state())).rejects.toThrow(/ENOSPC/);
      expect(second.warnings.length).toBeGreaterThan(0);
      expect(second.warnings.every((warning) => warning.startsWith('snapshot failed'))).toBe(true);
      expect(await readFile(join(dir, SNAPSHOT_FILE))).toEqual(good);
      expect((await readdir(dir)).filter((name) => name.startsWith('snapshot'))).toEqual([SNAPSHOT_FILE]);
      expect((await readdir(dir)).filter((name) => name.startsWith('journal-'))).toContain(segmentName(0));

      const third = await open();
      expect(emails(third.store)).toEqual(acked.map(email));
      await third.store.close();
    },
  );

  it('a snapshot that does not read back as written (bytes altered, write reported whole) is refused', async () => {
    const first = await open();
    await first.store.close();
    const good = await readFile(join(dir, SNAPSHOT_FILE));
    const files = faultyFiles(200, snapshotOnly, 'corrupt');
    const second = await open({ files, snapshotEvery: 2 });
    const { acked } = await fill(second.app, 3);
    await expect(second.store.close(second.app.state())).rejects.toThrow(/does not read back as written/);
    expect(second.warnings[0]).toMatch(/snapshot failed .*does not read back as written/);
    expect(await readFile(join(dir, SNAPSHOT_FILE))).toEqual(good);
    const third = await open();
    expect(emails(third.store)).toEqual(acked.map(email));
    await third.store.close();
  });

  it('a disk filling at any byte of journal and snapshot together keeps every 201 (sweep)', async () => {
    const started = Date.now();
    let cuts = 0;
    for (let budget = 0; budget < 6000 && Date.now() - started < 20_000; budget += 397) {
      const at = join(dir, `sweep-${budget}`);
      const files = faultyFiles(budget, everyFile);
      files.heal();
      const made = await open({}, at);
      await made.store.close();
      const limited = faultyFiles(budget, everyFile);
      const first = await open({ files: limited, snapshotEvery: 2 }, at);
      const { acked } = await fill(first.app, 10);
      await first.store.close(first.app.state());
      const second = await open({}, at);
      expect(emails(second.store), `budget ${budget}`).toEqual(acked.map(email));
      await second.store.close();
      cuts += 1;
    }
    expect(cuts).toBeGreaterThan(5);
  });
});

/** Mounts a small tmpfs where the test may (root on Linux); undefined elsewhere. */
function mountTmpfs(at: string, size: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], {
      stdio: 'ignore',
      timeout: 5000,
    });
    return true;
  } catch {
    return false;
  }
}

describe('a real full disk: a small tmpfs (root only)', () => {
  it('fills the disk with writes: 201s, then 503s; restarted with space, every 201 is there', async () => {
    const mountPoint = join(dir, 'small');
    await mkdir(mountPoint);
    if (!mountTmpfs(mountPoint, '96k')) {
      // Not root (or no tmpfs): the injected faults above cover the same paths.
      expect(process.getuid?.() === 0 && process.platform === 'linux').toBe(false);
      return;
    }
    const data = join(mountPoint, 'data');
    const moved = join(dir, 'moved');
    try {
      const first = await open({ snapshotEvery: 40 }, data);
      const acked: number[] = [];
      let refused = 0;
      const padding = 'x'.repeat(900);
      for (let n = 1; n <= 400 && refused < 3; n += 1) {
        const response = await first.app(
          new Request('http://localhost/customers.json', {
            method: 'POST',
            headers,
            body: JSON.stringify({
              customer: {
                first_name: `C${n}`,
                last_name: 'L',
                email: email(n),
                organization: padding.slice(0, 250),
              },
            }),
          }),
        );
        if (response.status === 201) acked.push(n);
        else if (response.status === 503) refused += 1;
        else throw new Error(`unexpected ${response.status}`);
      }
      expect(refused).toBe(3);
      expect(acked.length).toBeGreaterThan(5);
      await first.store.close(first.app.state());
      // "Restart with space": copy the directory off the full disk and open it there.
      execFileSync('cp', ['-a', data, moved], { timeout: 10_000 });
      const second = await open({}, moved);
      expect(emails(second.store)).toEqual(acked.map(email));
      await second.store.close();
    } finally {
      execFileSync('umount', [mountPoint], { stdio: 'ignore', timeout: 5000 });
    }
  });
});

async function journalWith(records: number): Promise<number[]> {
  const first = await open();
  const { acked } = await fill(first.app, records);
  await first.store.close();
  return acked;
}

describe('damage is never silent (issue 21 item 2)', () => {
  it('a complete record with a bad checksum refuses to open, naming file, offset and record; --repair moves it aside', async () => {
    await journalWith(4);
    const path = join(dir, segmentName(0));
    const bytes = await readFile(path);
    const lines = bytes.toString('latin1').split('\n');
    const offset = (lines[0]?.length ?? 0) + 1 + (lines[1]?.length ?? 0) + 1;
    const damaged = Buffer.from(bytes);
    damaged[offset + 30] = (damaged[offset + 30] ?? 0) ^ 0x01;
    await writeFile(path, damaged);

    const refused = await openStore(dir, { site });
    expect(refused).toEqual({
      ok: false,
      error: `damaged journal: ${path} at byte ${offset}, record 2: a bad checksum or content. Acknowledged records may be lost; start with --repair to move the damaged bytes aside`,
    });
    // The last record damaged is damage too, not a torn write.
    const lastDamaged = Buffer.from(bytes);
    lastDamaged[bytes.length - 3] = (lastDamaged[bytes.length - 3] ?? 0) ^ 0x01;
    await writeFile(path, lastDamaged);
    expect((await openStore(dir, { site })).ok).toBe(false);
    await writeFile(path, damaged);

    const repaired = await open({ repair: true });
    expect(repaired.warnings).toEqual([
      `repair: dropped the damaged record 2 (${path} at byte ${offset}, record 2: a bad checksum or content) and everything after it: moved aside to ${path}.damaged-${offset} (intact record 3 among them)`,
    ]);
    expect(emails(repaired.store)).toEqual([email(1), email(2)]);
    expect(await readFile(`${path}.damaged-${offset}`)).toEqual(damaged.subarray(offset));
    expect(await readFile(path)).toEqual(bytes.subarray(0, offset));
    await repaired.store.close();
    const again = await open();
    expect(again.warnings).toEqual([]);
    expect(emails(again.store)).toEqual([email(1), email(2)]);
    await again.store.close();
  });

  it('a deleted journal refuses to open (today it would start an empty site), naming what is missing', async () => {
    await journalWith(2);
    await rm(join(dir, segmentName(0)));
    const refused = await openStore(dir, { site });
    expect(refused).toEqual({
      ok: false,
      error: `${join(dir, segmentName(0))} is missing: the journal from record 0 on (after the snapshot's position) is gone; start with --repair to serve the snapshot alone`,
    });
    const repaired = await open({ repair: true });
    expect(repaired.warnings[0]).toMatch(/^repair: .* is missing/);
    expect(emails(repaired.store)).toEqual([]);
    await repaired.store.close();
  });

  it('a missing last segment (named by the one before) and a gap between segments refuse to open', async () => {
    await journalWith(0);
    // Snapshots fail (no space for them), so segments rotate at records 3 and 6 and all stay.
    const files = faultyFiles(0, snapshotOnly);
    const first = await open({ files, snapshotEvery: 3 });
    for (let n = 1; n <= 7; n += 1) {
      expect((await createCustomer(first.app, n)).status).toBe(201);
      // Let each failed background snapshot finish, so the next rotation falls due on time.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await first.store.close();
    const names = (await readdir(dir)).filter((name) => name.startsWith('journal-')).sort();
    expect(names).toEqual([segmentName(0), segmentName(3), segmentName(6)]);
    const middle = join(dir, segmentName(3));
    const saved = await readFile(middle);
    await rm(middle);
    expect(await openStore(dir, { site })).toEqual({
      ok: false,
      error: `${middle} is missing: records 3 to 5 are gone before ${segmentName(6)}; start with --repair to drop what follows the gap`,
    });
    await writeFile(middle, saved);
    const last = join(dir, segmentName(6));
    await rm(last);
    expect(await openStore(dir, { site })).toEqual({
      ok: false,
      error: `${last} is missing: ${segmentName(3)} ends by naming it as the next segment; start with --repair to serve without it`,
    });
    const repaired = await open({ repair: true });
    expect(repaired.warnings).toEqual([
      `repair: ${last} is missing: ${segmentName(3)} ends by naming it as the next segment; records from 6 on (if there were any) are lost`,
    ]);
    expect(emails(repaired.store)).toEqual([1, 2, 3, 4, 5, 6].map(email));
    await repaired.store.close();
  });

  it('segments a snapshot covers but a crash left undeleted are skipped, end records included', async () => {
    await journalWith(0);
    const files = faultyFiles(0, snapshotOnly);
    const first = await open({ files, snapshotEvery: 3 });
    for (let n = 1; n <= 7; n += 1) {
      expect((await createCustomer(first.app, n)).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await first.store.close();
    const kept = await Promise.all(
      [0, 3, 6].map(async (seq) => [seq, await readFile(join(dir, segmentName(seq)))] as const),
    );
    const second = await open();
    await second.store.close(second.app.state());
    expect((await readdir(dir)).filter((name) => name.startsWith('journal-'))).toEqual([segmentName(7)]);
    for (const [seq, bytes] of kept) await writeFile(join(dir, segmentName(seq)), bytes);
    const third = await open();
    expect(third.warnings).toEqual([]);
    expect(emails(third.store)).toEqual([1, 2, 3, 4, 5, 6, 7].map(email));
    await third.store.close();
  });
});

describe('rotation at the current position', () => {
  it('a final snapshot with nothing new since the last one keeps the segment (no end record naming itself)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const opened = await open();
      await opened.store.close(opened.app.state());
    }
    const reopened = await open();
    expect(reopened.warnings).toEqual([]);
    await fill(reopened.app, 1);
    await reopened.store.close(reopened.app.state());
    const last = await open();
    expect(emails(last.store)).toEqual([email(1)]);
    await last.store.close(last.app.state());
  });
});

describe('the portal secret of a data directory (CONTRACT 9)', () => {
  it('a new directory gets a random secret, kept across restarts; a given one replaces it with a snapshot', async () => {
    const first = await open();
    const secret = first.store.state.settings.portalSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await first.store.close();
    const other = join(dir, 'other');
    const elsewhere = await open({}, other);
    expect(elsewhere.store.state.settings.portalSecret).not.toBe(secret);
    await elsewhere.store.close();

    const second = await open();
    expect(second.store.state.settings.portalSecret).toBe(secret);
    await fill(second.app, 1);
    await second.store.close();
    const third = await open({ portalSecret: 'rotated-secret' });
    expect(third.store.state.settings.portalSecret).toBe('rotated-secret');
    expect(emails(third.store)).toEqual([email(1)]);
    await third.store.close();
    const fourth = await open();
    expect(fourth.store.state.settings.portalSecret).toBe('rotated-secret');
    expect(emails(fourth.store)).toEqual([email(1)]);
    await fourth.store.close();
  });

  it('a directory written with the old public default secret gets a random one, with a warning', async () => {
    const first = await open();
    await fill(first.app, 1);
    const state = first.app.state();
    await first.store.close(state);
    const legacy = { ...state, settings: { ...state.settings, portalSecret: 'billing-core-portal-acme' } };
    await writeSnapshot(dir, { position: 1, state: legacy });
    const second = await open();
    expect(second.warnings).toEqual([
      'the site had no private portal secret; a random one was generated (earlier portal links are void)',
    ]);
    const secret = second.store.state.settings.portalSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await second.store.close();
    const third = await open();
    expect(third.warnings).toEqual([]);
    expect(third.store.state.settings.portalSecret).toBe(secret);
    expect(emails(third.store)).toEqual([email(1)]);
    await third.store.close();
  });
});
