/**
 * An ad hoc invoice of 100,000 lines created through `handle()` (POST /subscriptions/{id}/invoices.json,
 * three stacked coupons, two site taxes): parsing, validation, building, storing and presenting the
 * invoice. The floor is the float64 pass over the same lines plus a JSON round trip of the same request
 * (`JSON.parse(JSON.stringify(request))`), the least any host does with such a request. Target: ≤ 5×.
 */
import type { CalcLine } from '../src/domain/invoice/calculation/index.js';
import { handle, type SiteState } from '../src/index.js';
import { BenchSite, idOf } from './bench-site.js';
import { type BenchOptions, type BenchRow, label, measureAgainstFloor } from './harness.js';
import { COUPONS, fixture, floatFloor, TAXES } from './invoice-fixtures.js';

const NOW = '2026-01-16T10:00:00Z';

function siteWithSubscription(): { state: SiteState; subscription: number } {
  const site = new BenchSite({ taxes: TAXES.map((tax) => ({ name: tax.name, percentage: tax.percentage })) });
  site.product('gold');
  const customer = idOf(
    site.ok('POST', '/customers.json', {
      customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    }),
  );
  const subscription = idOf(
    site.ok('POST', '/subscriptions.json', {
      subscription: {
        product_handle: 'gold',
        customer_id: customer,
        payment_collection_method: 'remittance',
      },
    }),
  );
  return { state: site.state, subscription };
}

function requestBody(lines: readonly CalcLine[]) {
  return {
    invoice: {
      line_items: lines.map((line) => ({
        title: line.uid,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        taxable: line.taxable,
      })),
      coupons: COUPONS.map((coupon) => ({
        code: coupon.code,
        ...(coupon.kind === 'percentage'
          ? { percentage: coupon.percentage, compounding_strategy: coupon.compoundingStrategy }
          : { amount: coupon.amount }),
      })),
    },
  };
}

function adHocCase(lineCount: number, runs: number): BenchRow {
  const { state, subscription } = siteWithSubscription();
  const { lines } = fixture(lineCount, 20_240_601 + lineCount);
  const body = requestBody(lines);
  const path = `/subscriptions/${subscription}/invoices.json`;
  const measured = measureAgainstFloor(
    () => {
      const { response } = handle(state, { method: 'POST', path, body }, { now: NOW });
      if (response.status !== 201) throw new Error(`${path}: ${JSON.stringify(response.body).slice(0, 300)}`);
    },
    () => {
      const parsed = JSON.parse(JSON.stringify(body)) as unknown;
      return [parsed, floatFloor(lines)];
    },
    runs,
    1,
  );
  return {
    name: `handle() ad hoc invoice, ${label(lineCount)} lines`,
    ...measured,
    note: 'target ≤ 5×; floor = float64 pass + JSON round trip of the request',
  };
}

export default function adHocInvoiceBench(options: BenchOptions): BenchRow[] {
  return options.smoke ? [adHocCase(2000, 3)] : [adHocCase(Number(process.env['ADHOC_LINES'] ?? 100_000), 7)];
}
