/**
 * `handle()` for one read and one write on a site with 100,000 subscriptions, against a floor of a plain
 * Map lookup (read) and a plain Map insert (write) over as many keys. The same cases on a site of 1,000
 * subscriptions show that the cost of a request does not grow with the site.
 *
 * The site is built once, outside the timed code, with real signups (customer, card, subscription, first
 * invoice and payment each) applied in batches through the engine's own routes and `applyChanges` (see
 * bench-site.ts): 100,000 separate `handle()` calls would take minutes.
 */
import { handle, type SiteState } from '../src/index.js';
import { applyInBatches, BenchSite, signupBody } from './bench-site.js';
import { type BenchOptions, type BenchRow, label, measureAgainstFloor, perCall } from './harness.js';

const NOW = '2026-01-20T09:00:00Z';
/** Requests per measured batch: one request is too short to time alone. */
const BATCH = 200;

/** Subscriptions put on hold: one in a thousand, spread over the site. */
const HELD_EVERY = 1000;

function bigSite(subscriptions: number): SiteState {
  const site = new BenchSite();
  site.product('gold');
  const signedUp = applyInBatches(
    site.state,
    subscriptions,
    (n) => ({ method: 'POST', path: '/subscriptions.json', body: signupBody('gold', n) }),
    site.now,
  );
  return applyInBatches(
    signedUp,
    Math.floor(subscriptions / HELD_EVERY),
    (n) => ({ method: 'POST', path: `/subscriptions/${n * HELD_EVERY + 500}/hold.json`, body: {} }),
    site.now,
  );
}

/** Ids spread over the whole site, so the reads do not stay in one chunk. */
const spreadIds = (count: number): number[] =>
  Array.from({ length: BATCH }, (_, index) => 1 + ((index * 7919) % count));

function readCase(state: SiteState, count: number, runs: number): BenchRow {
  const ids = spreadIds(count);
  const paths = ids.map((id) => `/subscriptions/${id}.json`);
  const plain = new Map<number, { id: number; state: string }>();
  for (let id = 1; id <= count; id += 1) plain.set(id, { id, state: 'active' });
  let sink = 0;
  const measured = measureAgainstFloor(
    () => {
      for (const path of paths) {
        const { response } = handle(state, { method: 'GET', path }, { now: NOW });
        if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
      }
    },
    () => {
      for (const id of ids) sink += plain.get(id)?.id ?? 0;
    },
    runs,
    2,
  );
  if (sink < 0) throw new Error('unreachable');
  return {
    name: `handle() read GET /subscriptions/{id}.json, site of ${label(count)} subscriptions`,
    ...perCall(measured, BATCH),
    note: `per request, median of batches of ${BATCH}; floor = Map lookup by id`,
  };
}

/**
 * A page of 20 of a state-filtered listing: the subscriptions on hold (one in a thousand, so a scan
 * would read the whole table for one page), and a page halfway down the active ones. The floor is 20
 * Map lookups by id, what reading the page's rows by id costs at least.
 */
function listCases(state: SiteState, count: number, runs: number): BenchRow[] {
  const plain = new Map<number, { id: number; state: string }>();
  for (let id = 1; id <= count; id += 1) plain.set(id, { id, state: 'active' });
  const held = Math.floor(count / HELD_EVERY);
  const lists = [
    {
      label: 'state=on_hold, first page',
      path: '/subscriptions.json?state=on_hold&per_page=20',
      rows: Math.min(20, held),
    },
    {
      label: 'state=active, the middle page',
      path: `/subscriptions.json?state=active&per_page=20&page=${Math.floor(count / 40)}`,
      rows: 20,
    },
  ];
  let sink = 0;
  return lists.map(({ label: what, path, rows }) => {
    const ids = spreadIds(count).slice(0, 20);
    const measured = measureAgainstFloor(
      () => {
        for (let n = 0; n < BATCH; n += 1) {
          const { response } = handle(state, { method: 'GET', path }, { now: NOW });
          const body = response.body;
          if (response.status !== 200 || !Array.isArray(body) || body.length !== rows)
            throw new Error(
              `GET ${path}: ${response.status}, ${Array.isArray(body) ? body.length : 'no'} rows`,
            );
        }
      },
      () => {
        for (let n = 0; n < BATCH; n += 1) for (const id of ids) sink += plain.get(id)?.id ?? 0;
      },
      runs,
      2,
    );
    if (sink < 0) throw new Error('unreachable');
    return {
      name: `handle() list GET /subscriptions.json?${what}, site of ${label(count)} subscriptions`,
      ...perCall(measured, BATCH),
      note: `per request, median of batches of ${BATCH}; floor = 20 Map lookups by id`,
    };
  });
}

interface WriteKind {
  readonly label: string;
  readonly path: string;
  readonly body: (n: number) => unknown;
}

const WRITES: readonly WriteKind[] = [
  {
    label: 'POST /customers.json',
    path: '/customers.json',
    body: (n) => ({
      customer: { first_name: 'Grace', last_name: `Hopper ${n}`, email: `grace${n}@example.com` },
    }),
  },
  // A signup also writes a payment profile, an invoice, a payment and the schedule.
  {
    label: 'POST /subscriptions.json (signup)',
    path: '/subscriptions.json',
    body: (n) => signupBody('gold', 1e9 + n),
  },
];

function writeCase(state: SiteState, count: number, runs: number, kind: WriteKind): BenchRow {
  const bodies = Array.from({ length: BATCH }, (_, n) => kind.body(n));
  const plain = new Map<number, { id: number; email: string }>();
  for (let id = 1; id <= count; id += 1) plain.set(id, { id, email: `ada${id}@example.com` });
  const measured = measureAgainstFloor(
    () => {
      // Each write goes on from the state the previous one left, as a host threads it.
      let current = state;
      for (const body of bodies) {
        const result = handle(current, { method: 'POST', path: kind.path, body }, { now: NOW });
        if (result.response.status !== 201) throw new Error(`POST ${kind.path}: ${result.response.status}`);
        current = result.state;
      }
    },
    () => {
      for (let n = 0; n < bodies.length; n += 1) plain.set(count + 1 + n, { id: count + 1 + n, email: 'x' });
    },
    runs,
    2,
  );
  return {
    name: `handle() write ${kind.label}, site of ${label(count)} subscriptions`,
    ...perCall(measured, BATCH),
    note: `per request, median of batches of ${BATCH}; floor = Map insert`,
  };
}

export default function handleBench(options: BenchOptions): BenchRow[] {
  const sizes = options.smoke ? [1000] : [1000, 100_000];
  const rows: BenchRow[] = [];
  for (const size of sizes) {
    const state = bigSite(size);
    const runs = options.smoke ? 3 : 9;
    rows.push(
      // A batch of reads takes a few milliseconds, so one young collection in it moves its time by half:
      // three times the runs give the median more to stand on, for little time.
      readCase(state, size, runs * 3),
      ...listCases(state, size, runs),
      ...WRITES.map((kind) => writeCase(state, size, runs, kind)),
    );
  }
  return rows;
}
