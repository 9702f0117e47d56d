/**
 * Bulk ingestion of 1,000 usage events through `handle()` (POST /events/{stream}/bulk.json) into a stream
 * read by a count metric and a sum metric, each billed by an event-based component of a subscription.
 * The floor is a JSON round trip of the same items plus a float64 aggregation (count and sum) over them.
 */
import { handle, type SiteState } from '../src/index.js';
import { BenchSite, idOf } from './bench-site.js';
import { type BenchOptions, type BenchRow, label, measureAgainstFloor, seededRandom } from './harness.js';

const NOW = '2026-01-20T09:00:00Z';
const STREAM = 'api';

function siteWithEventComponents(): { state: SiteState; subscription: number } {
  const site = new BenchSite({
    metrics: [
      { id: 1, name: 'Calls', streamHandle: STREAM, aggregation: 'count' },
      { id: 2, name: 'Bytes', streamHandle: STREAM, aggregation: 'sum', property: 'bytes' },
    ],
  });
  const product = site.product('gold');
  for (const [metric, price] of [
    [1, '0.01'],
    [2, '0.0001'],
  ] as const) {
    site.ok('POST', '/product_families/1/event_based_components.json', {
      event_based_component: {
        name: `Metric ${metric}`,
        unit_name: 'unit',
        pricing_scheme: 'per_unit',
        unit_price: price,
        event_based_billing_metric_id: metric,
      },
    });
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
  return { state: site.state, subscription };
}

function ingestionCase(count: number, runs: number): BenchRow {
  const { state, subscription } = siteWithEventComponents();
  const random = seededRandom(count);
  const items = Array.from({ length: count }, (_, n) => ({
    svc: { subscription_id: subscription },
    bytes: Math.floor(random() * 1_000_000),
    path: `/v1/things/${n % 97}`,
  }));
  const path = `/events/${STREAM}/bulk.json`;
  const measured = measureAgainstFloor(
    () => {
      const { response } = handle(state, { method: 'POST', path, body: items }, { now: NOW });
      if (response.status !== 201) throw new Error(`${path}: ${JSON.stringify(response.body).slice(0, 300)}`);
    },
    () => {
      const parsed = JSON.parse(JSON.stringify(items)) as typeof items;
      let calls = 0;
      let bytes = 0;
      for (const item of parsed) {
        calls += 1;
        bytes += item.bytes;
      }
      return calls + bytes;
    },
    runs,
    3,
  );
  return {
    name: `bulk ingestion of ${label(count)} usage events`,
    ...measured,
    note: 'floor = JSON round trip + float64 count and sum over the items',
  };
}

export default function ingestionBench(options: BenchOptions): BenchRow[] {
  return options.smoke ? [ingestionCase(100, 3)] : [ingestionCase(1000, 15)];
}
