/**
 * Several `serve --database-url` processes on one PostgreSQL, a few hundred sites, concurrent clients on
 * loopback sending to any process. In the middle of the burst a process is killed (SIGKILL) and a new one
 * started, again and again; once a process is instead frozen (SIGSTOP) past its leases and then thawed,
 * so that it tries to write under leases the others have taken over. Afterwards every acknowledged
 * change is there, under the id it was acknowledged with; nothing is there that was not sent, or twice;
 * every site's journal runs 0, 1, 2, … without a gap; and every site, as served and as loaded again, is
 * the state a sequential replay of its journal through `handle` gives.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { replayEntry, type StoredEntry } from '../../src/adapters/postgres/journal-entries.js';
import { readPieces } from '../../src/adapters/postgres/pieces-table.js';
import type { SqlPool } from '../../src/adapters/postgres/sql.js';
import { openPostgresStore } from '../../src/adapters/postgres/store.js';
import { handle } from '../../src/api/handle.js';
import type { SiteState } from '../../src/engine/state.js';
import { checkState } from '../../src/testing/index.js';
import { arr, basicAuth, num, str } from '../helpers/api.js';
import { type ServeProcess, startServe } from './cluster.js';
import { usePostgres } from './server.js';

const pg = usePostgres();
const SITES = Array.from({ length: 240 }, (_, index) => `site-${index}`);
const KEY = 'takeover-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const LEASE = ['--lease-ms', '1500', '--idle-ms', '600000', '--snapshot-every', '1000000'];
const live: ServeProcess[] = [];
afterAll(() => {
  for (const each of live) {
    each.child.kill('SIGCONT');
    each.child.kill('SIGKILL');
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Ledger {
  readonly sent: Map<string, Set<string>>;
  readonly acknowledged: Map<string, Map<string, number>>;
  answers: Map<number, number>;
}

async function burst(ledger: Ledger, stop: () => boolean, worker: number): Promise<void> {
  for (let i = 0; !stop(); i += 1) {
    const site = SITES[(worker * 7919 + i * 104_729) % SITES.length] ?? 'site-0';
    const target = live[(worker + i) % live.length];
    if (target === undefined) continue;
    const reference = `w${worker}-${i}`;
    ledger.sent.get(site)?.add(reference);
    try {
      const response = await fetch(`${target.url}/_sites/${site}/customers.json`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          customer: { first_name: 'T', last_name: reference, email: `${reference}@example.com`, reference },
        }),
        signal: AbortSignal.timeout(20_000),
      });
      ledger.answers.set(response.status, (ledger.answers.get(response.status) ?? 0) + 1);
      const body: unknown = await response.json();
      if (response.status === 201) ledger.acknowledged.get(site)?.set(reference, num(body, 'customer', 'id'));
      else {
        expect(response.status, JSON.stringify(body)).toBe(503);
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    } catch {
      // The process was killed or frozen: not acknowledged.
      await sleep(20);
    }
  }
}

async function journalOf(pool: SqlPool, site: string): Promise<{ seq: number; entry: StoredEntry }[]> {
  const rows = await pool.query<{ seq: string; entry: StoredEntry }>(
    'SELECT seq, entry FROM billing_core_journal WHERE subdomain = $1 ORDER BY seq',
    [site],
  );
  return rows.rows.map((row) => ({ seq: Number(row.seq), entry: row.entry }));
}

const listing = (state: SiteState) =>
  handle(
    state,
    { method: 'GET', path: '/customers.json?per_page=200&direction=asc', headers },
    { now: '2030-01-01T00:00:00Z' },
  ).response.body;

describe('many processes, one database, processes killed mid-burst', () => {
  it('keeps every acknowledged change once, with no gap, equal to a sequential replay', async () => {
    const url = pg.server().url;
    const store = await openPostgresStore(pg.pool());
    for (const site of SITES) expect(await store.createSite(site, { apiKeys: [KEY] })).toEqual({ ok: true });
    live.push(...(await Promise.all([0, 1, 2].map(() => startServe(url, LEASE)))));
    const ledger: Ledger = {
      sent: new Map(SITES.map((site) => [site, new Set<string>()])),
      acknowledged: new Map(SITES.map((site) => [site, new Map<string, number>()])),
      answers: new Map(),
    };
    let stopped = false;
    const starting: Promise<unknown>[] = [];
    const workers = Array.from({ length: 16 }, (_, worker) => burst(ledger, () => stopped, worker));
    for (const round of [0, 1, 2, 3]) {
      // Each blow falls on three processes in the middle of the burst.
      await Promise.all([sleep(2500), ...starting]);
      const victim = live[round % live.length];
      if (victim === undefined) throw new Error('no process');
      if (round === 2) {
        // Frozen past its leases: the others take its sites over; thawed, its writes are refused.
        victim.child.kill('SIGSTOP');
        await sleep(4000);
        victim.child.kill('SIGCONT');
        continue;
      }
      victim.child.kill('SIGKILL');
      await victim.exited;
      live.splice(live.indexOf(victim), 1);
      starting.push(startServe(url, LEASE).then((started) => live.push(started)));
    }
    await Promise.all(starting);
    await sleep(2500);
    stopped = true;
    await Promise.all(workers);

    const acknowledgedCount = [...ledger.acknowledged.values()].reduce((sum, each) => sum + each.size, 0);
    expect(acknowledgedCount).toBeGreaterThan(300);
    // Some requests met a dead or frozen holder and were answered 503.
    expect(ledger.answers.get(503) ?? 0).toBeGreaterThan(0);

    const server = live[0];
    if (server === undefined) throw new Error('no process');
    const finalStates = new Map<string, SiteState>();
    for (const site of SITES) {
      const journal = await journalOf(pg.pool(), site);
      expect(
        journal.map((row) => row.seq),
        site,
      ).toEqual(journal.map((_, index) => index));
      let state = (await readPieces(pg.pool(), site)) as SiteState;
      for (const { entry } of journal) state = replayEntry(state, entry);
      expect(checkState(state), site).toEqual([]);
      finalStates.set(site, state);
      const served = await fetch(`${server.url}/_sites/${site}/customers.json?per_page=200&direction=asc`, {
        headers,
      });
      expect(served.status).toBe(200);
      const body: unknown = await served.json();
      expect(body, site).toEqual(listing(state));
      const present = new Map(
        arr(body).map((row) => [str(row, 'customer', 'reference'), num(row, 'customer', 'id')]),
      );
      expect(present.size, `${site}: a duplicate reference`).toBe(arr(body).length);
      for (const [reference, id] of ledger.acknowledged.get(site) ?? [])
        expect(present.get(reference), `${site} ${reference}`).toBe(id);
      for (const reference of present.keys())
        expect(ledger.sent.get(site)?.has(reference), reference).toBe(true);
    }

    // Closing releases every site with a final snapshot; loaded again, each is the replayed state.
    for (const each of live) each.child.kill('SIGTERM');
    for (const each of live.splice(0)) expect((await each.exited).code).toBe(0);
    for (const site of SITES.slice(0, 40)) {
      const got = await store.acquire(site, 'checker', 10_000);
      if (got.kind !== 'acquired') throw new Error(`${site}: ${got.kind}`);
      expect(got.site.state, site).toEqual(JSON.parse(JSON.stringify(finalStates.get(site))));
      await got.site.release();
    }
  }, 240_000);
});
