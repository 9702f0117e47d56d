/**
 * Walks docs/events.md's table "Which operation records which key": every row is exercised through
 * `handle()` (or `advance()` for time), and the keys each scenario records must be the ones the row names,
 * in the row's order. A row without a scenario, or a scenario naming a row the table lacks, fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { advance, type PaymentGateway, type SiteEvent } from '../../../src/index.js';
import { cardAttributes, num, type Site, str } from '../../helpers/api.js';
import {
  allocate,
  component,
  fixture,
  MIDDLE,
  PERIOD_END,
  subscribe,
} from '../allocation/allocation-fixtures.js';

interface Row {
  readonly operation: string;
  /** The backticked keys of the row's "Keys (in order)" cell, in the order the cell names them. */
  readonly keys: readonly string[];
}

function tableRows(): Row[] {
  const text = readFileSync(new URL('../../../docs/events.md', import.meta.url), 'utf8');
  const section = text.split('## Which operation records which key')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Operation') && !line.startsWith('|---'))
    .map((line) => {
      const cells = line.split(' | ');
      const operation = (cells[0] ?? '').replace(/^\| /, '');
      const keys = [...(cells[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => match[1] ?? '');
      return { operation, keys };
    });
}

/** True when `keys` appear in `documented` in the same order (each later one after the one before). */
function inDocumentedOrder(keys: readonly string[], documented: readonly string[]): boolean {
  let from = 0;
  for (const key of keys) {
    const at = documented.indexOf(key, from);
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

const keysOf = (events: readonly SiteEvent[], subscriptionId?: number) =>
  events
    .filter((event) => subscriptionId === undefined || event.subscription_id === subscriptionId)
    .map((event) => event.key);

const call = (s: Site, method: string, path: string, body?: unknown) => {
  const called = s.request(method, path, body);
  expect(called.status, `${method} ${path}: ${JSON.stringify(called.body)}`).toBeLessThan(300);
  return called;
};

const declining: PaymentGateway = () => ({ success: false, message: 'Card declined' });

/** Each scenario names the row (its operation cell, as written) and returns the keys it recorded. */
const scenarios: readonly { row: string; name: string; run: () => string[] }[] = [
  {
    row: '`POST /customers.json`',
    name: 'create a customer',
    run: () =>
      keysOf(
        call(fixture().s, 'POST', '/customers.json', {
          customer: { first_name: 'A', last_name: 'B', email: 'a@b.co' },
        }).events,
      ),
  },
  {
    row: '`PUT /customers/{id}.json`',
    name: 'update a customer',
    run: () => {
      const { s } = fixture();
      const id = s.customer();
      return keysOf(call(s, 'PUT', `/customers/${id}.json`, { customer: { first_name: 'C' } }).events);
    },
  },
  {
    row: '`DELETE /customers/{id}.json`',
    name: 'delete a customer',
    run: () => {
      const { s } = fixture();
      return keysOf(call(s, 'DELETE', `/customers/${s.customer()}.json`).events);
    },
  },
  {
    row: '`POST /subscriptions.json` (signup)',
    name: 'a paid signup',
    run: () => {
      const f = fixture();
      const customer = f.s.customer();
      const profile = f.s.card(customer);
      const body = {
        subscription: { product_id: f.product, customer_id: customer, payment_profile_id: profile },
      };
      return keysOf(call(f.s, 'POST', '/subscriptions.json', body).events);
    },
  },
  {
    row: '`POST /subscriptions.json` (signup)',
    name: 'a free trial signup: nothing due, nothing collected',
    run: () => {
      const f = fixture();
      const trial = f.s.product(
        { trial_price_in_cents: 0, trial_interval: 7, trial_interval_unit: 'day' },
        f.family,
      );
      const customer = f.s.customer();
      const body = {
        subscription: { product_id: trial, customer_id: customer, payment_profile_id: f.s.card(customer) },
      };
      return keysOf(call(f.s, 'POST', '/subscriptions.json', body).events);
    },
  },
  {
    row: 'Renewal (time reaching a period end)',
    name: 'a collected renewal',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      return keysOf(f.s.advance(PERIOD_END), id);
    },
  },
  {
    row: 'Renewal (time reaching a period end)',
    name: 'a declined renewal starts dunning',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      return keysOf(advance(f.s.state, { now: PERIOD_END, payments: declining }).events, id);
    },
  },
  {
    row: 'Any state change (cancel, hold, resume, reactivate, dunning, trial end, expiry)',
    name: 'cancel now',
    run: () => {
      const f = fixture();
      return keysOf(call(f.s, 'DELETE', `/subscriptions/${subscribe(f)}.json`).events);
    },
  },
  {
    row: 'Any state change (cancel, hold, resume, reactivate, dunning, trial end, expiry)',
    name: 'a trial ends and its first period is billed',
    run: () => {
      const f = fixture();
      const trial = f.s.product(
        { trial_price_in_cents: 0, trial_interval: 7, trial_interval_unit: 'day' },
        f.family,
      );
      const id = f.s.subscribed(trial).id;
      return keysOf(f.s.advance('2026-01-22T12:00:00Z'), id);
    },
  },
  {
    row: 'Resume or reactivation that starts a new period',
    name: 'reactivate a canceled subscription',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      call(f.s, 'DELETE', `/subscriptions/${id}.json`);
      return keysOf(call(f.s.at(MIDDLE), 'PUT', `/subscriptions/${id}/reactivate.json`, {}).events);
    },
  },
  {
    row: 'Delayed cancellation set / removed',
    name: 'set a delayed cancellation',
    run: () => {
      const f = fixture();
      return keysOf(call(f.s, 'POST', `/subscriptions/${subscribe(f)}/delayed_cancel.json`, {}).events);
    },
  },
  {
    row: 'Migration (`POST /subscriptions/{id}/migrations.json`)',
    name: 'an upgrade migration charged now',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      const pro = f.s.product({ name: 'Pro', price_in_cents: 2000 }, f.family);
      const body = { migration: { product_id: pro } };
      return keysOf(call(f.s.at(MIDDLE), 'POST', `/subscriptions/${id}/migrations.json`, body).events);
    },
  },
  {
    row: 'Allocation (`POST …/allocations.json`)',
    name: 'an upgrade charged now',
    run: () => {
      const f = fixture();
      const seats = component(f, 'quantity_based_component', { unit_price: '3' });
      const id = subscribe(f);
      const path = `/subscriptions/${id}/components/${seats}/allocations.json`;
      return keysOf(call(f.s.at(MIDDLE), 'POST', path, { allocation: { quantity: 4 } }).events);
    },
  },
  {
    row: 'Allocation (`POST …/allocations.json`)',
    name: 'a downgrade credited',
    run: () => {
      const f = fixture();
      const seats = component(f, 'quantity_based_component', { unit_price: '3' });
      const id = subscribe(f);
      allocate(f.s, id, seats, { quantity: 4 });
      const path = `/subscriptions/${id}/components/${seats}/allocations.json`;
      const body = { allocation: { quantity: 1, downgrade_credit: 'prorated' } };
      return keysOf(call(f.s.at(MIDDLE), 'POST', path, body).events);
    },
  },
  {
    row: 'Metered usage (`POST …/usages.json`)',
    name: 'metered usage',
    run: () => {
      const f = fixture();
      const metered = component(f, 'metered_component', { unit_price: '1' });
      const path = `/subscriptions/${subscribe(f)}/components/${metered}/usages.json`;
      return keysOf(call(f.s, 'POST', path, { usage: { quantity: 3 } }).events);
    },
  },
  {
    row: 'Prepaid usage (`POST …/usages.json` on a prepaid usage component)',
    name: 'prepaid usage',
    run: () => {
      const f = fixture();
      const prepaid = component(f, 'prepaid_usage_component', { unit_price: '2' });
      const id = subscribe(f);
      allocate(f.s, id, prepaid, { quantity: 10 });
      const path = `/subscriptions/${id}/components/${prepaid}/usages.json`;
      return keysOf(call(f.s, 'POST', path, { usage: { quantity: 3 } }).events);
    },
  },
  {
    row: 'Payment moved from a voided invoice to prepayments (`POST /invoices/{uid}/void.json`)',
    name: 'void a partly paid invoice',
    run: () => {
      const { s, uid } = adhocInvoice();
      call(s, 'POST', `/invoices/${uid}/payments.json`, { payment: { amount: '2', memo: 'part' } });
      return keysOf(call(s, 'POST', `/invoices/${uid}/void.json`, { void: { reason: 'mistake' } }).events);
    },
  },
  {
    row: 'Invoice issued (ad hoc, renewal, signup)',
    name: 'an ad hoc invoice',
    run: () => adhocInvoice().keys,
  },
  {
    row: 'Invoice voided (`POST /invoices/{uid}/void.json`, advance invoice void or forced reissue)',
    name: 'void an unpaid invoice',
    run: () => {
      const { s, uid } = adhocInvoice();
      return keysOf(call(s, 'POST', `/invoices/${uid}/void.json`, { void: { reason: 'mistake' } }).events);
    },
  },
  {
    row: 'Advance invoice (`POST /subscriptions/{id}/advance_invoice/issue.json`)',
    name: 'issue the next period in advance',
    run: () => {
      const f = fixture();
      const path = `/subscriptions/${subscribe(f)}/advance_invoice/issue.json`;
      return keysOf(call(f.s, 'POST', path, {}).events);
    },
  },
  {
    row: 'Payment recorded on an invoice',
    name: 'record a payment',
    run: () => {
      const { s, uid } = adhocInvoice();
      return keysOf(
        call(s, 'POST', `/invoices/${uid}/payments.json`, { payment: { amount: '5', memo: 'all' } }).events,
      );
    },
  },
  {
    row: "Refund of an invoice's payment (`POST /invoices/{uid}/refunds.json`)",
    name: 'refund a payment in full, voiding the invoice',
    run: () => {
      const { s, uid } = adhocInvoice();
      const paid = call(s, 'POST', `/invoices/${uid}/payments.json`, {
        payment: { amount: '5', memo: 'all' },
      });
      const payment_id = num(paid.body, 'payments', 0, 'transaction_id');
      const refund = { amount: '5', memo: 'back', payment_id, external: true, void_invoice: true };
      return keysOf(call(s, 'POST', `/invoices/${uid}/refunds.json`, { refund }).events);
    },
  },
  {
    row: 'Payment for a subscription (`POST /subscriptions/{id}/payments.json`), over several invoices (`POST /invoices/payments.json`)',
    name: 'pay a subscription more than it owes',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      call(f.s, 'POST', `/subscriptions/${id}/invoices.json`, {
        invoice: { line_items: [{ title: 'Setup', quantity: 1, unit_price: '5' }] },
      });
      const body = { payment: { amount: '500', memo: 'wire', payment_method: 'ach' } };
      return keysOf(call(f.s, 'POST', `/subscriptions/${id}/payments.json`, body).events);
    },
  },
  {
    row: 'Prepayment refund (`POST /subscriptions/{id}/prepayments/{id}/refunds.json`)',
    name: 'refund a prepayment',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      const body = { prepayment: { amount: 10, details: 'd', memo: 'm', method: 'check' } };
      const prepaid = call(f.s, 'POST', `/subscriptions/${id}/prepayments.json`, body);
      const path = `/subscriptions/${id}/prepayments/${num(prepaid.body, 'prepayment', 'id')}/refunds.json`;
      return keysOf(call(f.s, 'POST', path, { refund: { amount: '4', memo: 'back' } }).events);
    },
  },
  {
    row: 'Service credit deduction (subscription or group)',
    name: 'deduct service credit',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      call(f.s, 'POST', `/subscriptions/${id}/service_credits.json`, {
        service_credit: { amount: 3, memo: 'm' },
      });
      const path = `/subscriptions/${id}/service_credit_deductions.json`;
      return keysOf(call(f.s, 'POST', path, { deduction: { amount: '1', memo: 'fix' } }).events);
    },
  },
  {
    row: 'Group prepayment / service credit (`/subscription_groups/{uid}/…`)',
    name: "a group's prepayment",
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      call(f.s, 'POST', `/subscriptions/${id}/group.json`, { group: { target: { type: 'self' } } });
      const found = call(f.s, 'GET', `/subscription_groups/lookup.json?subscription_id=${id}`);
      const path = `/subscription_groups/${str(found.body, 'uid')}/prepayments.json`;
      const body = { prepayment: { amount: 10, details: 'd', memo: 'm', method: 'check' } };
      return keysOf(call(f.s, 'POST', path, body).events);
    },
  },
  {
    row: 'Reopen, send, customer information of an invoice',
    name: 'send an invoice and refresh its customer information',
    run: () => {
      const { s, uid } = adhocInvoice();
      return [
        ...keysOf(call(s, 'POST', `/invoices/${uid}/deliveries.json`, {}).events),
        ...keysOf(call(s, 'PUT', `/invoices/${uid}/customer_information.json`).events),
      ];
    },
  },
  {
    row: 'Prepayment / service credit',
    name: 'a prepayment',
    run: () => {
      const f = fixture();
      const path = `/subscriptions/${subscribe(f)}/prepayments.json`;
      const body = { prepayment: { amount: 10, details: 'd', memo: 'm', method: 'check' } };
      return keysOf(call(f.s, 'POST', path, body).events);
    },
  },
  {
    row: 'Prepayment / service credit',
    name: 'a service credit',
    run: () => {
      const f = fixture();
      const path = `/subscriptions/${subscribe(f)}/service_credits.json`;
      return keysOf(call(f.s, 'POST', path, { service_credit: { amount: 1, memo: 'm' } }).events);
    },
  },
  {
    row: 'Proforma invoice issued',
    name: 'a proforma invoice',
    run: () => {
      const f = fixture();
      return keysOf(call(f.s, 'POST', `/subscriptions/${subscribe(f)}/proforma_invoices.json`, {}).events);
    },
  },
  {
    row: 'Bulk event ingestion (`POST /events/{stream}/bulk.json`)',
    name: 'bulk events',
    run: () => {
      const f = fixture({ metrics: [{ id: 1, name: 'Calls', streamHandle: 'api', aggregation: 'count' }] });
      const id = subscribe(f);
      return keysOf(
        call(f.s, 'POST', '/events/api/bulk.json', [{ chargify: { subscription_id: id } }]).events,
      );
    },
  },
  {
    row: 'Subscription update (`PUT /subscriptions/{id}.json`)',
    name: 'a new card, billing date, product and collection method',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      const other = f.s.product({ price_in_cents: 2000 }, f.family);
      const body = {
        subscription: {
          credit_card_attributes: cardAttributes(1),
          next_billing_at: '2026-02-01T00:00:00Z',
          product_id: other,
          payment_collection_method: 'remittance',
        },
      };
      return keysOf(call(f.s, 'PUT', `/subscriptions/${id}.json`, body).events);
    },
  },
  {
    row: 'Default payment profile change (`POST /subscriptions/{id}/payment_profiles/{id}/change_payment_profile.json`)',
    name: 'another card of the customer',
    run: () => {
      const f = fixture();
      const { id, customer } = f.s.subscribed(f.product);
      const card = f.s.card(customer, 2);
      return keysOf(
        call(f.s, 'POST', `/subscriptions/${id}/payment_profiles/${card}/change_payment_profile.json`).events,
      );
    },
  },
  {
    row: 'Retry, cancel dunning (`PUT …/retry.json`, `POST …/cancel_dunning.json`)',
    name: 'a retry that pays',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      f.s.state = advance(f.s.state, { now: PERIOD_END, payments: declining }).state;
      f.s.at(PERIOD_END);
      return keysOf(call(f.s, 'PUT', `/subscriptions/${id}/retry.json`).events);
    },
  },
  {
    row: 'Activation (`PUT …/activate.json`)',
    name: 'a trial activated now',
    run: () => {
      const f = fixture();
      const trial = f.s.product(
        { trial_price_in_cents: 0, trial_interval: 7, trial_interval_unit: 'day' },
        f.family,
      );
      const id = f.s.subscribed(trial).id;
      return keysOf(call(f.s, 'PUT', `/subscriptions/${id}/activate.json`, {}).events);
    },
  },
  {
    row: 'Purge (`POST …/purge.json`)',
    name: 'purge a free trial',
    run: () => {
      const f = fixture();
      const trial = f.s.product(
        { trial_price_in_cents: 0, trial_interval: 7, trial_interval_unit: 'day' },
        f.family,
      );
      const customer = f.s.customer();
      const body = f.s.subscribe({
        product_id: trial,
        customer_id: customer,
        payment_collection_method: 'remittance',
      });
      const id = num(body, 'subscription', 'id');
      return keysOf(call(f.s, 'POST', `/subscriptions/${id}/purge.json?ack=${customer}`).events);
    },
  },
  {
    row: 'Group signup (`POST /subscription_groups/signup.json`)',
    name: 'a group of one',
    run: () => keysOf(groupOfOne().events),
  },
  {
    row: 'Group cancel, delayed cancel and its removal, reactivation',
    name: 'cancel a group of one',
    run: () => {
      const { s, uid } = groupOfOne();
      return keysOf(call(s, 'POST', `/subscription_groups/${uid}/cancel.json`, {}).events);
    },
  },
  {
    row: 'Custom field values (`POST`, `PUT`, `DELETE /{subscriptions,customers}/{id}/metadata.json`, `DELETE /{…}/metafields.json`)',
    name: 'a custom field value set on a subscription',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      const body = { metadata: [{ name: 'Color', value: 'red' }] };
      return keysOf(call(f.s, 'POST', `/subscriptions/${id}/metadata.json`, body).events);
    },
  },
  {
    row: 'Notes, coupons added or removed, prepaid configuration, override, hold resumption (`PUT …/hold.json`), payment profile update, delete and bank account verification, lookup, signup preview',
    name: 'a note',
    run: () => {
      const f = fixture();
      const id = subscribe(f);
      return [
        ...keysOf(
          call(f.s, 'POST', `/subscriptions/${id}/notes.json`, { note: { body: 'x', sticky: false } }).events,
        ),
        ...keysOf(
          call(f.s, 'POST', `/subscriptions/${id}/prepaid_configurations.json`, {
            prepaid_configuration: { initial_funding_amount_in_cents: 100 },
          }).events,
        ),
      ];
    },
  },
];

/** A subscription with an open $5.00 ad hoc invoice. */
function adhocInvoice(): { s: Site; uid: string; keys: string[] } {
  const f = fixture();
  const id = subscribe(f);
  const body = { invoice: { line_items: [{ title: 'Setup', quantity: 1, unit_price: '5' }] } };
  const called = call(f.s, 'POST', `/subscriptions/${id}/invoices.json`, body);
  return { s: f.s, uid: str(called.body, 'invoice', 'uid'), keys: keysOf(called.events) };
}

/** What each scenario records, as docs/events.md's rows say. */
const expected: Readonly<Record<string, readonly string[]>> = {
  'create a customer': ['customer_create'],
  'update a customer': ['customer_update'],
  'delete a customer': ['customer_delete'],
  'a paid signup': ['invoice_issued', 'payment_success', 'signup_success'],
  'a free trial signup: nothing due, nothing collected': ['invoice_issued', 'signup_success'],
  'a collected renewal': ['statement_closed', 'invoice_issued', 'payment_success', 'renewal_success'],
  'a declined renewal starts dunning': [
    'statement_closed',
    'invoice_issued',
    'payment_failure',
    'renewal_failure',
    'subscription_state_change',
  ],
  'cancel now': ['subscription_state_change'],
  'a trial ends and its first period is billed': [
    'subscription_state_change',
    'invoice_issued',
    'payment_success',
    'renewal_success',
  ],
  'reactivate a canceled subscription': [
    'subscription_state_change',
    'billing_date_change',
    'invoice_issued',
    'payment_success',
  ],
  'set a delayed cancellation': ['pending_cancellation_change'],
  'an upgrade migration charged now': ['subscription_product_change', 'invoice_issued', 'payment_success'],
  'an upgrade charged now': ['invoice_issued', 'payment_success', 'component_allocation_change'],
  'a downgrade credited': [
    'component_allocation_change',
    'subscription_service_credit_account_balance_changed',
  ],
  'metered usage': ['metered_usage'],
  'prepaid usage': ['prepaid_usage'],
  'void a partly paid invoice': ['subscription_prepayment_account_balance_changed'],
  'an ad hoc invoice': ['invoice_issued'],
  'void an unpaid invoice': [],
  'issue the next period in advance': ['invoice_issued', 'payment_success'],
  'record a payment': ['payment_success'],
  'refund a payment in full, voiding the invoice': ['refund_success'],
  'pay a subscription more than it owes': [
    'payment_success',
    'subscription_prepayment_account_balance_changed',
  ],
  'refund a prepayment': ['subscription_prepayment_account_balance_changed'],
  'deduct service credit': ['subscription_service_credit_account_balance_changed'],
  "a group's prepayment": ['subscription_prepayment_account_balance_changed'],
  'send an invoice and refresh its customer information': [],
  'a prepayment': ['subscription_prepayment_account_balance_changed'],
  'a service credit': ['subscription_service_credit_account_balance_changed'],
  'a proforma invoice': ['proforma_invoice_issued'],
  'bulk events': [],
  'a new card, billing date, product and collection method': [
    'subscription_card_update',
    'billing_date_change',
    'subscription_product_change',
    'payment_collection_method_changed',
  ],
  'another card of the customer': ['subscription_card_update'],
  'a retry that pays': ['payment_success', 'subscription_state_change'],
  'a trial activated now': [
    'subscription_state_change',
    'invoice_issued',
    'payment_success',
    'renewal_success',
  ],
  'purge a free trial': ['subscription_deletion'],
  'a group of one': [
    'customer_create',
    'subscription_added_to_group',
    'invoice_issued',
    'payment_success',
    'signup_success',
    'subscription_group_signup_success',
  ],
  'cancel a group of one': ['subscription_state_change'],
  'a note': [],
  'a custom field value set on a subscription': ['custom_field_value_change'],
};

/** A group signup of one subscription, paid by a new payer's card. */
function groupOfOne() {
  const f = fixture();
  const called = call(f.s, 'POST', '/subscription_groups/signup.json', {
    subscription_group: {
      payer_attributes: { first_name: 'G', last_name: 'H', email: 'g@h.co' },
      credit_card_attributes: cardAttributes(1),
      subscriptions: [{ product_id: f.product }],
    },
  });
  return { s: f.s, uid: str(called.body, 'uid'), events: called.events };
}

describe("docs/events.md's table, row by row", () => {
  const rows = tableRows();

  it('has a scenario for every row and a row for every scenario', () => {
    const operations = rows.map((row) => row.operation);
    const covered = new Set(scenarios.map((scenario) => scenario.row));
    expect(operations.filter((operation) => !covered.has(operation))).toEqual([]);
    expect([...covered].filter((row) => !operations.includes(row))).toEqual([]);
  });

  for (const scenario of scenarios) {
    it(`${scenario.row}: ${scenario.name}`, () => {
      const want = expected[scenario.name] ?? [];
      const row = rows.find((each) => each.operation === scenario.row);
      expect(inDocumentedOrder(want, row?.keys ?? []), `${want.join(', ')} in ${row?.keys.join(', ')}`).toBe(
        true,
      );
      expect(scenario.run()).toEqual(want);
    });
  }
});

describe('the keys an allocation records', () => {
  it('an allocation that charges nothing records only its change', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '3' });
    const id = subscribe(f);
    const path = `/subscriptions/${id}/components/${seats}/allocations.json`;
    const body = { allocation: { quantity: 2, upgrade_charge: 'none' } };
    expect(keysOf(call(f.s, 'POST', path, body).events)).toEqual(['component_allocation_change']);
    expect(num(f.s.subscription(id), 'id')).toBe(id);
  });
});
