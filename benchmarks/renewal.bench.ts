/**
 * Renewals and billing periods (issue 24 measures its calendar arithmetic here):
 * - a renewal of a subscription holding 1,000 quantity-based components (per-unit prices, varied
 *   quantities): `advance()` across the period end, which prices every component, builds, issues and
 *   collects the renewal invoice and reschedules the subscription. The floor is a float64 loop pricing
 *   the same 1,000 components (quantity × unit price, summed);
 * - a catch-up of 10,000 renewals: one `advance()` over 10,000 days of a daily subscription in
 *   America/New_York (each renewal counts its period from the anchor in the site zone, across 54 DST
 *   changes). The floor is one plain `Map` update per renewal;
 * - a period listing: `periodOf` for periods 0 to 9,999 of a monthly subscription anchored on 31 January
 *   at 10:00 in America/New_York (months clamp from the anchor day; the time of day is kept across DST).
 *   The floor is the same count of naive UTC month steps (`Date.UTC` and `toISOString`, no zone, no clamp).
 */
import { advance, periodOf, type SiteState } from '../src/index.js';
import { BenchSite, idOf, signedUpSite } from './bench-site.js';
import {
  type BenchOptions,
  type BenchRow,
  label,
  measureAgainstFloor,
  perCall,
  seededRandom,
} from './harness.js';

const SIGNUP = '2026-01-15T12:00:00Z';
const AFTER_PERIOD_END = '2026-02-15T12:00:01Z';

interface Priced {
  readonly unitPrice: string;
  readonly quantity: number;
}

function siteWithComponents(count: number): { state: SiteState; priced: Priced[] } {
  const site = new BenchSite({}, SIGNUP);
  const product = site.product('gold');
  const family = 1;
  const random = seededRandom(1000 + count);
  const priced: Priced[] = [];
  const componentIds: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const unitPrice = (1 + Math.floor(random() * 9999) / 100).toFixed(2);
    const body = site.ok('POST', `/product_families/${family}/quantity_based_components.json`, {
      quantity_based_component: {
        name: `Seat kind ${n}`,
        unit_name: 'seat',
        pricing_scheme: 'per_unit',
        unit_price: unitPrice,
      },
    });
    componentIds.push(idOf(body));
    priced.push({ unitPrice, quantity: 1 + Math.floor(random() * 50) });
  }
  const subscription = idOf(
    site.ok('POST', '/subscriptions.json', {
      subscription: {
        product_id: product,
        customer_attributes: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        credit_card_attributes: {
          full_number: '4111111111111111',
          expiration_month: 12,
          expiration_year: 2030,
        },
      },
    }),
  );
  // A bulk allocation takes at most 500 components.
  for (let first = 0; first < count; first += 500) {
    site.ok('POST', `/subscriptions/${subscription}/allocations.json`, {
      allocations: componentIds
        .slice(first, first + 500)
        .map((id, n) => ({ component_id: id, quantity: priced[first + n]!.quantity })),
    });
  }
  return { state: site.state, priced };
}

function renewalCase(count: number, runs: number, warmup: number): BenchRow {
  const { state, priced } = siteWithComponents(count);
  const measured = measureAgainstFloor(
    () => {
      const { events } = advance(state, { now: AFTER_PERIOD_END });
      if (!events.some((event) => event.key === 'renewal_success')) throw new Error('no renewal');
    },
    () => {
      let total = 0;
      for (const component of priced) total += component.quantity * Number(component.unitPrice);
      return total;
    },
    runs,
    warmup,
  );
  return {
    name: `renewal of a subscription with ${label(count)} components`,
    ...measured,
    note: 'advance() across the period end; floor = float64 loop pricing the components',
  };
}

const ZONE = 'America/New_York';
const CATCH_UP_SIGNUP = '2026-01-15T12:00:00Z';

/** A site in New York with one subscription to a daily product, signed up at `CATCH_UP_SIGNUP`. */
function dailySubscriptionSite(): SiteState {
  const site = new BenchSite({ timeZone: ZONE }, CATCH_UP_SIGNUP);
  const family = idOf(site.ok('POST', '/product_families.json', { product_family: { name: 'Daily plans' } }));
  site.ok('POST', `/product_families/${family}/products.json`, {
    product: { name: 'Daily', handle: 'daily', price_in_cents: 100, interval: 1, interval_unit: 'day' },
  });
  site.ok('POST', '/subscriptions.json', {
    subscription: {
      product_handle: 'daily',
      customer_attributes: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      credit_card_attributes: {
        full_number: '4111111111111111',
        expiration_month: 12,
        expiration_year: 2030,
      },
    },
  });
  return site.state;
}

function catchUpCase(renewals: number, runs: number): BenchRow {
  const state = dailySubscriptionSite();
  // One second past the end of the last period that falls due: exactly `renewals` renewals.
  const now = new Date(Date.parse(CATCH_UP_SIGNUP) + renewals * 86_400_000 + 1000).toISOString();
  const measured = measureAgainstFloor(
    () => {
      const { events, complete } = advance(state, { now });
      const renewed = events.filter((event) => event.key === 'renewal_success').length;
      if (!complete || renewed !== renewals) throw new Error(`${renewed} renewals, ${renewals} expected`);
    },
    () => {
      const store = new Map<number, number>();
      for (let n = 0; n < renewals; n += 1) store.set(n, n);
      return store.size;
    },
    runs,
    1,
  );
  return {
    name: `catch-up of ${label(renewals)} daily renewals (${ZONE})`,
    ...measured,
    note: 'one advance() over the days; floor = one plain Map update per renewal',
  };
}

function periodListingCase(count: number, runs: number): BenchRow {
  const anchor = '2026-01-31T15:00:00.000Z'; // 10:00 in New York
  const step = { months: 1 };
  const measured = measureAgainstFloor(
    () => {
      let last = '';
      for (let n = 0; n < count; n += 1) last = periodOf(anchor, ZONE, step, n).end;
      return last;
    },
    () => {
      let last = '';
      for (let n = 0; n < count; n += 1) last = new Date(Date.UTC(2026, n + 1, 31, 15)).toISOString();
      return last;
    },
    runs,
    2,
  );
  return {
    name: `period listing, ${label(count)} monthly periods (${ZONE}, anchor 31 January)`,
    ...measured,
    note: 'periodOf(anchor, zone, { months: 1 }, n) for each n; floor = naive UTC month steps',
  };
}

/**
 * A renewal day: every subscription of the site renews at one instant, in `advance()` calls of up to
 * 20,000 renewals each until complete (each renewal
 * invoiced, collected and rescheduled). Reported per renewal, so that sites of 10,000 and 100,000 compare
 * directly (a cost that grows with the site shows as a larger figure); the floor is one plain `Map`
 * update per renewal.
 */
function renewalDayCase(count: number, runs: number): BenchRow {
  const state = signedUpSite(count, SIGNUP);
  const measured = measureAgainstFloor(
    () => {
      // One call performs at most STEPS_PER_CALL due steps (20,000): a host calls again until complete.
      let current = state;
      let renewed = 0;
      for (let complete = false; !complete; ) {
        const step = advance(current, { now: AFTER_PERIOD_END });
        renewed += step.events.filter((event) => event.key === 'renewal_success').length;
        current = step.state;
        complete = step.complete;
      }
      if (renewed !== count) throw new Error(`${renewed} renewals, ${count} expected`);
    },
    () => {
      const store = new Map<number, number>();
      for (let n = 0; n < count; n += 1) store.set(n, n);
      return store.size;
    },
    runs,
    1,
  );
  return {
    name: `renewal day: ${label(count)} subscriptions renewing at one instant, per renewal`,
    ...perCall(measured, count),
    note: `advance() until complete: ${label(Math.round(count / (measured.host.ms / 1000)))} renewals/s as a host; floor = one plain Map update per renewal`,
  };
}

export default function renewalBench(options: BenchOptions): BenchRow[] {
  return options.smoke
    ? [renewalCase(100, 3, 2), catchUpCase(100, 1), periodListingCase(100, 3), renewalDayCase(500, 1)]
    : [
        // A fresh process takes about 15 renewals of 1,000 components to compile them (2-30 ms each, then
        // 1.2-1.4 ms on the development machine); a host that renews such subscriptions is long past that.
        // With 2 warm-up runs, the host figure measured the compiler's warm-up (3.4-3.7 ms in session 16).
        renewalCase(1000, 9, 20),
        catchUpCase(10_000, 5),
        periodListingCase(10_000, 9),
        renewalDayCase(10_000, 5),
        renewalDayCase(100_000, 3),
      ];
}
