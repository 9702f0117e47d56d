/**
 * The listings that page through set indexes (subscriptions by state, invoices by status or group,
 * a component's price points) answer exactly what the table scans they replaced answered, in the same
 * order, for any paging, direction and filter, after signups, holds, cancellations, renewals, dunning,
 * ad hoc invoices (voided, deleted) and archived price points. The scans are kept here as the reference.
 */
import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect } from 'vitest';
import { TRANSITIONS } from '../../src/domain/subscription/transitions.js';
import { rebuiltSetIndexes, setOf } from '../../src/engine/set-index.js';
import type { SiteState } from '../../src/engine/state.js';
import type { Invoice } from '../../src/index.js';
import { tableRows, tableRowsReverse } from '../../src/kernel/collection.js';
import { idSetToArray } from '../../src/kernel/id-set.js';
import { idOfUid } from '../../src/kernel/ids.js';
import { arr, call, get, num, type Site, site, str } from '../helpers/api.js';
import { componentSite, createComponent } from '../helpers/components.js';
import { SUBSCRIPTION_KINDS, signUp } from '../helpers/scenarios.js';

const STATES = [...Object.keys(TRANSITIONS), 'bogus'];
const STATUSES = ['draft', 'pending', 'open', 'paid', 'voided', 'canceled', 'processing', 'bogus'];

/** The page the old scan gave: `pageOf` over the filtered table rows. */
function scannedPage<T>(rows: Iterable<T>, keep: (row: T) => boolean, page: number, perPage: number): T[] {
  const result: T[] = [];
  let index = 0;
  for (const row of rows) {
    if (!keep(row)) continue;
    if (index >= (page - 1) * perPage) result.push(row);
    index += 1;
    if (result.length >= perPage) break;
  }
  return result;
}

interface Paging {
  readonly page: number;
  readonly perPage: number;
  readonly direction: 'asc' | 'desc' | undefined;
}

const query = (name: string, values: readonly string[], paging: Paging, extra = ''): string =>
  [
    ...values.map((value) => `${name}=${value}`),
    `page=${paging.page}`,
    `per_page=${paging.perPage}`,
    ...(paging.direction === undefined ? [] : [`direction=${paging.direction}`]),
    ...(extra === '' ? [] : [extra]),
  ].join('&');

/** The subscription ids the old scan of `GET /subscriptions.json?state=…` listed (newest first unless asc). */
function scannedSubscriptions(state: SiteState, states: readonly string[], paging: Paging): number[] {
  const rows =
    paging.direction === 'asc'
      ? tableRows(state.tables.subscriptions)
      : tableRowsReverse(state.tables.subscriptions);
  return scannedPage(
    rows,
    (row) => states.length === 0 || states.includes(row.state),
    paging.page,
    Math.min(paging.perPage, 200),
  ).map((row) => row.id);
}

/** The invoice uids the old scan of `GET /invoices.json?status=…` listed (oldest first unless desc). */
function scannedInvoices(
  state: SiteState,
  statuses: readonly string[],
  paging: Paging,
  groupId?: number,
): string[] {
  const rows =
    paging.direction === 'desc' ? tableRowsReverse(state.tables.invoices) : tableRows(state.tables.invoices);
  return scannedPage(
    rows,
    (row: Invoice) =>
      (statuses.length === 0 || statuses.includes(row.status)) &&
      (groupId === undefined || row.subscriptionGroupId === groupId),
    paging.page,
    Math.min(paging.perPage, 200),
  ).map((row) => row.uid);
}

/** Ids of the subscriptions a listing gave. */
const listedSubscriptions = (state: SiteState, path: string, now: string): number[] => {
  const called = call(state, 'GET', path, undefined, now);
  expect(called.status, path).toBe(200);
  return (called.body as unknown[]).map((item) => num(item, 'subscription', 'id'));
};

const listedInvoices = (state: SiteState, path: string, now: string): string[] => {
  const called = call(state, 'GET', path, undefined, now);
  expect(called.status, path).toBe(200);
  return arr(called.body, 'invoices').map((invoice) => str(invoice, 'uid'));
};

/**
 * Two of every kind of subscription, then a hold, a cancellation, a reactivation, ad hoc invoices (one
 * voided, one draft deleted) and a consolidated group, at points over four months of renewals and
 * dunning. Each site is kept with its clock, so a listing at that clock catches nothing up.
 */
function sites(): { s: Site; state: SiteState; now: string }[] {
  const s = site();
  const taken: { s: Site; state: SiteState; now: string }[] = [];
  const ids: number[] = [];
  for (const round of [0, 1])
    SUBSCRIPTION_KINDS.forEach((kind, index) => {
      s.at(new Date(Date.parse('2026-01-15T12:00:00Z') + (round * 7 + index) * 3_600_000).toISOString());
      ids.push(signUp(s, kind));
    });
  const [monthly, daily, , , , remittance, , secondMonthly] = ids as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  taken.push({ s, state: s.state, now: s.now });
  s.ok('POST', `/subscriptions/${monthly}/hold.json`, {}, 200);
  s.ok('DELETE', `/subscriptions/${daily}.json`);
  const line = { title: 'Setup', quantity: 1, unit_price: '5' };
  const voided = s.ok('POST', `/subscriptions/${remittance}/invoices.json`, {
    invoice: { line_items: [line] },
  });
  s.ok('POST', `/invoices/${str(voided, 'invoice', 'uid')}/void.json`, { void: { reason: 'waived' } }, 200);
  const draft = s.ok('POST', `/subscriptions/${secondMonthly}/invoices.json`, {
    invoice: { status: 'draft', line_items: [line] },
  });
  s.ok('POST', `/subscriptions/${secondMonthly}/invoices.json`, {
    invoice: { status: 'draft', line_items: [line] },
  });
  s.ok(
    'DELETE',
    `/subscriptions/${secondMonthly}/invoices/${str(draft, 'invoice', 'uid')}.json`,
    undefined,
    204,
  );
  // A consolidated group: a payer and a child customer's subscription, renewing together.
  const product = s.product({ price_in_cents: 1200 });
  const payer = s.subscribed(product);
  const child = s.customer({ parent_id: payer.customer });
  const member = num(
    s.subscribe({ product_id: product, customer_id: child, payment_profile_id: s.card(child) }),
    'subscription',
    'id',
  );
  s.ok('POST', `/subscriptions/${payer.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
  s.ok(
    'POST',
    `/subscriptions/${member}/group.json`,
    { group: { target: { type: 'customer', id: payer.customer } } },
    200,
  );
  taken.push({ s, state: s.state, now: s.now });
  for (const now of ['2026-02-01T00:00:00Z', '2026-02-20T00:00:00Z', '2026-05-20T00:00:00Z']) {
    s.advance(now);
    if (now === '2026-02-20T00:00:00Z') s.ok('PUT', `/subscriptions/${daily}/reactivate.json`, {});
    taken.push({ s, state: s.state, now: s.now });
  }
  return taken;
}

const pagingArb = fc.record({
  page: fc.integer({ min: 1, max: 6 }),
  perPage: fc.oneof(fc.integer({ min: 1, max: 7 }), fc.constant(250)),
  direction: fc.constantFrom('asc' as const, 'desc' as const, undefined),
});

describe('listings through set indexes', () => {
  let built: { state: SiteState; now: string }[] = [];
  beforeAll(() => {
    built = sites();
  });

  test('the sites hold subscriptions in several states and invoices in several statuses', () => {
    const last = built.at(-1) as { state: SiteState };
    const states = new Set([...tableRows(last.state.tables.subscriptions)].map((row) => row.state));
    const statuses = new Set([...tableRows(last.state.tables.invoices)].map((row) => row.status));
    expect(states.size).toBeGreaterThanOrEqual(4);
    expect(statuses.size).toBeGreaterThanOrEqual(3);
    expect([...tableRows(last.state.tables.invoices)].some((row) => row.subscriptionGroupId !== null)).toBe(
      true,
    );
  });

  test('every set lists exactly what a scan of its table finds, and rebuilding gives the same sets', () => {
    for (const { state } of built) {
      for (const value of STATES)
        expect(idSetToArray(setOf(state.setIndexes, 'subscriptionStates', value)), value).toEqual(
          [...tableRows(state.tables.subscriptions)]
            .filter((row) => row.state === value)
            .map((row) => row.id),
        );
      for (const value of STATUSES)
        expect(idSetToArray(setOf(state.setIndexes, 'invoiceStatuses', value)), value).toEqual(
          [...tableRows(state.tables.invoices)].filter((row) => row.status === value).map((row) => row.id),
        );
      expect(rebuiltSetIndexes(state)).toStrictEqual(state.setIndexes);
    }
  });

  test.prop([fc.nat(4), fc.subarray(STATES), fc.boolean(), pagingArb], { numRuns: 150 })(
    'GET /subscriptions.json?state=… gives the page the scan gave',
    (at, states, repeat, paging) => {
      const { state, now } = built[at % built.length] as { state: SiteState; now: string };
      const values = repeat ? [...states, ...states] : states;
      const path = `/subscriptions.json?${query('state', values, paging)}`;
      expect(listedSubscriptions(state, path, now), path).toEqual(
        scannedSubscriptions(state, values, paging),
      );
    },
  );

  test.prop([fc.nat(4), fc.subarray(STATUSES), fc.boolean(), pagingArb], { numRuns: 150 })(
    'GET /invoices.json?status=… gives the page the scan gave',
    (at, statuses, repeat, paging) => {
      const { state, now } = built[at % built.length] as { state: SiteState; now: string };
      const values = repeat ? [...statuses, ...statuses] : statuses;
      const path = `/invoices.json?${query('status', values, paging)}`;
      expect(listedInvoices(state, path, now), path).toEqual(scannedInvoices(state, values, paging));
    },
  );

  test.prop([fc.subarray(STATUSES), pagingArb, fc.boolean()], { numRuns: 60 })(
    'GET /invoices.json?subscription_group_uid=…&status=… gives the page the scan gave',
    (statuses, paging, unknown) => {
      const { state, now } = built.at(-1) as { state: SiteState; now: string };
      const group = [...tableRows(state.tables.subscriptionGroups)][0];
      const uid = unknown || group === undefined ? 'grp_nothing' : group.uid;
      const path = `/invoices.json?${query('status', statuses, paging, `subscription_group_uid=${uid}`)}`;
      expect(listedInvoices(state, path, now), path).toEqual(
        scannedInvoices(state, statuses, paging, idOfUid('grp', uid) ?? 0),
      );
    },
  );
});

describe('component price points through their sets', () => {
  test('price_point_count and the price point listing follow creates, archives and unarchives', () => {
    const s = componentSite();
    const first = createComponent(s, 'quantity_based_component', { handle: 'seats' });
    const second = createComponent(s, 'quantity_based_component', { handle: 'desks' });
    const base = `/components/${first}/price_points`;
    const points = [1, 2, 3].map((n) =>
      num(
        s.ok('POST', `${base}.json`, {
          price_point: {
            name: `Tier ${n}`,
            handle: `tier-${n}`,
            pricing_scheme: 'per_unit',
            unit_price: `${n}`,
          },
        }),
        'price_point',
        'id',
      ),
    );
    const [one, two, three] = points as [number, number, number];
    s.ok('DELETE', `${base}/${two}.json`);
    s.ok('DELETE', `${base}/${three}.json`);
    s.ok('PUT', `${base}/${three}/unarchive.json`);
    const count = (id: number) =>
      num(s.ok('GET', `/components/${id}.json`), 'component', 'price_point_count');
    expect([count(first), count(second)]).toEqual([3, 1]);
    const listed = (filter: string) =>
      arr(s.ok('GET', `${base}.json?${filter}`), 'price_points').map((point) => get(point, 'id'));
    const defaultPoint = num(s.ok('GET', `/components/${first}.json`), 'component', 'default_price_point_id');
    expect(listed('per_page=2')).toEqual([defaultPoint, one]);
    expect(listed('per_page=2&page=2')).toEqual([three]);
    expect(listed('filter[archived_at]=not_null')).toEqual([two]);
    expect(
      (s.ok('GET', '/components.json') as unknown[]).map((item) =>
        get(item, 'component', 'price_point_count'),
      ),
    ).toEqual([3, 1]);
  });
});
