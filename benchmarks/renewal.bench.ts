/**
 * Renewal of a subscription holding 1,000 quantity-based components (per-unit prices, varied quantities):
 * `advance()` across the period end, which prices every component, builds, issues and collects the
 * renewal invoice and reschedules the subscription. The floor is a float64 loop pricing the same 1,000
 * components (quantity × unit price, summed).
 */
import { advance, type SiteState } from '../src/index.js';
import { BenchSite, idOf } from './bench-site.js';
import { type BenchOptions, type BenchRow, label, measureAgainstFloor, seededRandom } from './harness.js';

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

function renewalCase(count: number, runs: number): BenchRow {
  const { state, priced } = siteWithComponents(count);
  const { ms, floorMs } = measureAgainstFloor(
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
    2,
  );
  return {
    name: `renewal of a subscription with ${label(count)} components`,
    ms,
    floorMs,
    note: 'advance() across the period end; floor = float64 loop pricing the components',
  };
}

export default function renewalBench(options: BenchOptions): BenchRow[] {
  return options.smoke ? [renewalCase(100, 3)] : [renewalCase(1000, 9)];
}
