/** Advance invoices (SPEC 3, api-notes 7.4): issue, force, read, void, and the renewal of that period. */
import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, type Site, site, str } from '../../helpers/api.js';
import {
  balances,
  declining,
  prepay,
  remittance,
  serviceCredit,
  withGateway,
} from '../../helpers/invoices.js';
import { componentLines as componentLinesOf } from '../allocation/allocation-fixtures.js';
import {
  paths as advancePaths,
  cents,
  componentSite,
  linesOf,
  MIDDLE,
  sumOf,
  twins,
  use,
} from './advance-fixtures.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);
const paths = (id: number) => ({
  issue: `/subscriptions/${id}/advance_invoice/issue.json`,
  read: `/subscriptions/${id}/advance_invoice.json`,
  void: `/subscriptions/${id}/advance_invoice/void.json`,
});
const RENEWAL = '2026-02-15T12:00:00Z';

/** A $20 monthly remittance subscription started at T0 (its advance invoices stay open). */
function setup() {
  const s = site();
  const product = s.product({ price_in_cents: 2000 });
  const { id } = remittance(s, {}, { product_id: product });
  return { s, id, product, path: paths(id) };
}

const periodInvoices = (s: Site, id: number) =>
  s.invoices(id).filter((invoice) => get(invoice, 'line_items', 0, 'period_range_start') === '2026-02-15');

describe('advance invoice: issue and read', () => {
  it('issues an invoice for the next period (201, bare invoice) and reads it back', () => {
    const { s, id, product, path } = setup();
    s.fail('GET', path.read, undefined, 404);
    const issued = s.request('POST', path.issue, {});
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      subscription_id: id,
      status: 'open',
      total_amount: '20.00',
      due_amount: '20.00',
      line_items: [
        {
          product_id: product,
          period_range_start: '2026-02-15',
          period_range_end: '2026-03-15',
          subtotal_amount: '20.00',
        },
      ],
    });
    expect(s.ok('GET', path.read)).toEqual(issued.body);
    expect(s.subscription(id)).toMatchObject({ current_period_ends_at: RENEWAL, state: 'active' });
  });

  it('collects at once with a paying card, applying credits and prepayments first', () => {
    const s = site();
    const product = s.product({ price_in_cents: 2000 });
    const { id } = s.subscribed(product);
    serviceCredit(s, id, '3');
    prepay(s, id, '4');
    const issued = s.ok('POST', paths(id).issue, {});
    expect(issued).toMatchObject({
      status: 'paid',
      credit_amount: '3.00',
      paid_amount: '17.00',
      due_amount: '0.00',
    });
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
  });

  it('refuses a second advance invoice without force (422) and leaves the first', () => {
    const { s, id, path } = setup();
    const first = s.ok('POST', path.issue);
    expect(errorsOf(s.fail('POST', path.issue, {}, 422))).toMatch(/already exists/);
    s.fail('POST', path.issue, { force: false }, 422);
    expect(get(s.ok('GET', path.read), 'uid')).toBe(get(first, 'uid'));
    expect(periodInvoices(s, id)).toHaveLength(1);
  });

  it('with force voids the existing one and issues a new one', () => {
    const { s, id, path } = setup();
    prepay(s, id, '5');
    const first = str(s.ok('POST', path.issue), 'uid');
    expect(balances(s, id).prepayment).toBe(0);
    const forced = s.request('POST', path.issue, { force: true });
    expect(forced.status).toBe(201);
    expect(keys(forced.events)).not.toContain('void_invoice');
    expect(get(s.ok('GET', `/invoices/${first}.json`), 'status')).toBe('voided');
    expect(forced.body).toMatchObject({ status: 'open', paid_amount: '5.00', due_amount: '15.00' });
    expect(str(forced.body, 'uid')).not.toBe(first);
    expect(get(s.ok('GET', path.read), 'uid')).toBe(get(forced.body, 'uid'));
    expect(periodInvoices(s, id).map((invoice) => get(invoice, 'status'))).toEqual(['voided', 'open']);
  });

  it('with force and no advance invoice yet simply issues one', () => {
    const { s, path } = setup();
    expect(s.ok('POST', path.issue, { force: true })).toMatchObject({ status: 'open' });
  });

  it('answers 404 for an unknown subscription and 422 for one that is not active', () => {
    const { s } = setup();
    s.fail('POST', paths(99).issue, {}, 404);
    s.fail('GET', paths(99).read, undefined, 404);
    s.fail('POST', paths(99).void, { void: { reason: 'x' } }, 404);
    const trial = s.product({ trial_interval: 7, trial_interval_unit: 'day', trial_price_in_cents: 0 });
    const { id } = s.subscribed(trial);
    s.fail('POST', paths(id).issue, {}, 422);
    const canceled = setup();
    canceled.s.ok('DELETE', `/subscriptions/${canceled.id}.json`, undefined, 200);
    canceled.s.fail('POST', canceled.path.issue, {}, 422);
  });
});

describe('advance invoice: void', () => {
  it('needs a reason; returns prepayments and credits; the period can then be invoiced again', () => {
    const { s, id, path } = setup();
    serviceCredit(s, id, '2');
    prepay(s, id, '3');
    const uid = str(s.ok('POST', path.issue), 'uid');
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    for (const body of [undefined, {}, { void: {} }, { void: { reason: '' } }])
      s.fail('POST', path.void, body, 422);
    const voided = s.request('POST', path.void, { void: { reason: 'Changed plan' } });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ uid, status: 'voided' });
    expect(balances(s, id)).toEqual({ credit: 200, prepayment: 300 });
    s.fail('POST', path.void, { void: { reason: 'again' } }, 404);
    const again = s.ok('POST', path.issue);
    expect(again).toMatchObject({
      status: 'open',
      credit_amount: '2.00',
      paid_amount: '3.00',
      due_amount: '15.00',
    });
    expect(get(s.ok('GET', path.read), 'uid')).toBe(get(again, 'uid'));
  });

  it('a read finds no advance invoice once it is voided (404, like a second void), nor after that period renews', () => {
    const { s, path } = setup();
    s.ok('POST', path.issue);
    s.ok('POST', path.void, { void: { reason: 'x' } }, 200);
    expect.soft(s.request('GET', path.read).status).toBe(404);
    s.advance(RENEWAL);
    expect.soft(s.request('GET', path.read).status).toBe(404);
  });

  it('answers 404 when there is none and refuses a paid one (422)', () => {
    const { s, path } = setup();
    s.fail('POST', path.void, { void: { reason: 'x' } }, 404);
    const paid = site();
    const { id } = paid.subscribed(paid.product({ price_in_cents: 2000 }));
    paid.ok('POST', paths(id).issue);
    paid.fail('POST', paths(id).void, { void: { reason: 'x' } }, 422);
    // A paid advance invoice cannot be voided, so force cannot replace it either.
    paid.fail('POST', paths(id).issue, { force: true }, 422);
  });
});

describe('advance invoice: the renewal of its period', () => {
  it('does not bill the period twice: one invoice for it, and no advance invoice afterwards', () => {
    const { s, id, path } = setup();
    const uid = str(s.ok('POST', path.issue), 'uid');
    const events = s.advance(RENEWAL);
    expect(keys(events)).toEqual(['statement_closed', 'renewal_success']);
    expect(periodInvoices(s, id).map((invoice) => get(invoice, 'uid'))).toEqual([uid]);
    expect(s.invoices(id)).toHaveLength(2);
    expect(s.subscription(id)).toMatchObject({
      current_period_started_at: RENEWAL,
      current_period_ends_at: '2026-03-15T12:00:00Z',
    });
    s.fail('GET', path.read, undefined, 404);
    s.advance('2026-03-15T12:00:00Z');
    expect(s.invoices(id)).toHaveLength(3);
  });

  it('collects an advance invoice still open when its period starts', () => {
    const s = site();
    const product = s.product({ price_in_cents: 2000 });
    const { id } = s.subscribed(product);
    const issued = withGateway(s, declining, 'POST', paths(id).issue, {});
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ status: 'open', due_amount: '20.00' });
    expect(keys(issued.events)).toContain('payment_failure');
    const events = s.advance(RENEWAL);
    expect(keys(events)).toEqual(['statement_closed', 'payment_success', 'renewal_success']);
    const [signup, advance, ...rest] = s.invoices(id);
    expect(get(signup, 'role')).toBe('signup');
    expect(advance).toMatchObject({ uid: get(issued.body, 'uid'), status: 'paid', paid_amount: '20.00' });
    expect(rest).toEqual([]);
    expect(s.subscription(id)).toMatchObject({ state: 'active', total_revenue_in_cents: 4000 });
  });

  it('a voided advance invoice leaves the period to the renewal, which bills it', () => {
    const { s, id, path } = setup();
    s.ok('POST', path.issue);
    s.ok('POST', path.void, { void: { reason: 'x' } }, 200);
    s.advance(RENEWAL);
    expect(periodInvoices(s, id).map((invoice) => get(invoice, 'status'))).toEqual(['voided', 'open']);
    expect(arr(s.ok('GET', `/invoices.json?subscription_id=${id}&status=open`), 'invoices')).toHaveLength(2);
  });
});

describe('advance invoice: component charges', () => {
  const TAXED = {
    config: { taxes: [{ name: 'Sales tax', percentage: '8.25' }] },
    coupon: { percentage: '10' },
  };
  const USAGE = { seats: 4, support: true, calls: 150 };

  it('bills the product, the seats and the support of the next period with coupon and tax, as the renewal preview prices them', () => {
    const f = componentSite(TAXED);
    f.s.at(MIDDLE);
    use(f, USAGE);
    const previewed = get(f.s.ok('POST', advancePaths(f.id).preview, undefined, 200), 'renewal_preview');
    const advance = f.s.ok('POST', advancePaths(f.id).issue, {});
    expect(arr(advance, 'line_items').map((line) => [get(line, 'title'), get(line, 'quantity')])).toEqual([
      [expect.stringMatching(/^product-/), '1'],
      ['Seats', '4'],
      ['Support', '1'],
    ]);
    for (const line of arr(advance, 'line_items'))
      expect(line).toMatchObject({ period_range_start: '2026-02-15', period_range_end: '2026-03-15' });
    expect(advance).toMatchObject({
      status: 'paid',
      subtotal_amount: '38.32',
      discount_amount: '3.83',
      tax_amount: '2.47',
      total_amount: '36.96',
    });
    // The preview prices the same lines, plus the metered usage billed in arrears (150 calls, $1.50).
    const previewLines = arr(previewed, 'line_items').map((line) => get(line, 'amount_in_cents'));
    expect(previewLines).toEqual([
      ...arr(advance, 'line_items').map((line) => cents(get(line, 'subtotal_amount'))),
      150,
    ]);
  });

  it('the renewal it covers bills only the metered usage of the ending period; together they bill what the renewal alone bills', () => {
    const { alone, covered, events } = twins(TAXED, USAGE, (f) =>
      f.s.ok('POST', advancePaths(f.id).issue, {}),
    );
    const [advance, arrears, ...rest] = covered;
    expect(rest).toEqual([]);
    expect(get(advance, 'status')).toBe('paid');
    expect(arr(arrears, 'line_items')).toMatchObject([
      {
        title: 'API calls',
        quantity: '150',
        subtotal_amount: '1.50',
        period_range_start: '2026-01-15',
        period_range_end: '2026-02-15',
      },
    ]);
    expect(arrears).toMatchObject({
      role: 'renewal',
      status: 'paid',
      discount_amount: '0.15',
      tax_amount: '0.11',
      total_amount: '1.46',
    });
    expect(keys(events)).toEqual([
      'statement_closed',
      'invoice_issued',
      'payment_success',
      'renewal_success',
    ]);
    expect(alone).toHaveLength(1);
    expect(linesOf(covered)).toEqual(linesOf(alone));
    expect(sumOf(covered, 'subtotal_amount')).toBe(sumOf(alone, 'subtotal_amount'));
  });

  it('a voided advance invoice leaves the renewal to bill everything, once', () => {
    const { alone, covered, f } = twins(TAXED, USAGE, (twin) => {
      withGateway(twin.s, declining, 'POST', advancePaths(twin.id).issue, {});
      twin.s.ok('POST', advancePaths(twin.id).void, { void: { reason: 'Wrong seats' } }, 200);
    });
    const [voided, renewal, ...rest] = covered;
    expect(rest).toEqual([]);
    expect(get(voided, 'status')).toBe('voided');
    expect(get(renewal, 'status')).toBe('paid');
    expect(linesOf([renewal])).toEqual(linesOf(alone));
    expect(get(renewal, 'total_amount')).toBe(get(alone[0], 'total_amount'));
    expect(componentLinesOf(renewal, f.seats)).toHaveLength(1);
  });
});
