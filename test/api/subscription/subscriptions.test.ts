import { describe, expect, it } from 'vitest';
import { arr, call, cardAttributes, errorsOf, get, num, site, str } from '../../helpers/api.js';

describe('subscriptions: signup', () => {
  it('signs an existing customer up with a payment profile: 201, active, paid signup invoice', () => {
    const s = site();
    const product = s.product({ price_in_cents: 2000 });
    const customer = s.customer();
    const profile = s.card(customer);
    const created = s.request('POST', '/subscriptions.json', {
      subscription: {
        product_id: product,
        customer_id: customer,
        payment_profile_id: profile,
        reference: 'sub-1',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      subscription: {
        id: 1,
        state: 'active',
        reference: 'sub-1',
        product_price_in_cents: 2000,
        total_revenue_in_cents: 2000,
        signup_revenue: '20',
        current_period_started_at: '2026-01-15T12:00:00Z',
        current_period_ends_at: '2026-02-15T12:00:00Z',
        customer: { id: customer },
        product: { id: product },
        credit_card: { id: profile, masked_card_number: 'XXXX-XXXX-XXXX-1111' },
      },
    });
    expect(created.events.map((event) => event.key)).toEqual([
      'invoice_issued',
      'payment_success',
      'signup_success',
    ]);
    const [invoice] = s.invoices(1);
    expect(invoice).toMatchObject({
      role: 'signup',
      status: 'paid',
      total_amount: '20.00',
      paid_amount: '20.00',
      due_amount: '0.00',
    });
  });

  it('creates the customer and the card from customer_attributes and credit_card_attributes', () => {
    const s = site();
    s.product({ handle: 'basic' });
    const body = s.subscribe({
      product_handle: 'basic',
      customer_attributes: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        reference: 'g',
      },
      credit_card_attributes: cardAttributes(1),
    });
    expect(body).toMatchObject({
      subscription: {
        state: 'active',
        customer: { first_name: 'Grace', reference: 'g' },
        payment_type: 'credit_card',
      },
    });
    expect(num(s.ok('GET', '/customers/lookup.json?reference=g'), 'customer', 'id')).toBe(
      num(body, 'subscription', 'customer', 'id'),
    );
    expect(arr(s.ok('GET', '/payment_profiles.json'))).toHaveLength(1);
  });

  it('finds the product by id, by product_handle, by product_id "handle:x" and the customer by customer_reference', () => {
    const s = site();
    const product = s.product({ handle: 'basic' });
    const customer = s.customer({ reference: 'ref-1' });
    const profile = s.card(customer);
    for (const ref of [
      { product_id: product },
      { product_id: String(product) },
      { product_handle: 'basic' },
      { product_id: 'handle:basic' },
    ]) {
      const body = s.subscribe({ ...ref, customer_reference: 'ref-1', payment_profile_id: profile });
      expect(get(body, 'subscription', 'product', 'id'), JSON.stringify(ref)).toBe(product);
    }
  });

  it('a trial product starts trialing, without a charge, until the trial ends', () => {
    const s = site();
    const product = s.product({ trial_interval: 14, trial_interval_unit: 'day', trial_price_in_cents: 0 });
    const { id } = s.subscribed(product);
    expect(s.subscription(id)).toMatchObject({
      state: 'trialing',
      trial_started_at: '2026-01-15T12:00:00Z',
      trial_ended_at: '2026-01-29T12:00:00Z',
      current_period_ends_at: '2026-01-29T12:00:00Z',
      activated_at: null,
      total_revenue_in_cents: 0,
    });
    expect(s.invoices(id)).toMatchObject([{ role: 'signup', total_amount: '0.00', status: 'paid' }]);
  });

  it('a trial with a trial price charges it at signup', () => {
    const s = site();
    const product = s.product({ trial_interval: 7, trial_interval_unit: 'day', trial_price_in_cents: 199 });
    const { id } = s.subscribed(product);
    expect(s.invoices(id)).toMatchObject([{ total_amount: '1.99', line_items: [{ kind: 'trial' }] }]);
  });

  it('puts the initial charge on the signup invoice beside the first period', () => {
    const s = site();
    const product = s.product({ price_in_cents: 1000, initial_charge_in_cents: 2500 });
    const { id } = s.subscribed(product);
    const [invoice] = s.invoices(id);
    expect(invoice).toMatchObject({
      total_amount: '35.00',
      line_items: [
        {
          kind: 'baseline',
          subtotal_amount: '10.00',
          period_range_start: '2026-01-15',
          period_range_end: '2026-02-15',
        },
        { kind: 'initial', subtotal_amount: '25.00' },
      ],
    });
  });

  it.each([2, 3] as const)(
    'a card ending in %i refuses the signup (422) and returns the identical state',
    (digit) => {
      const s = site();
      const product = s.product();
      const before = s.state;
      const refused = call(before, 'POST', '/subscriptions.json', {
        subscription: {
          product_id: product,
          customer_attributes: { first_name: 'A', last_name: 'B', email: 'a@example.com' },
          credit_card_attributes: cardAttributes(digit),
        },
      });
      expect(refused.status).toBe(422);
      expect(refused.state).toBe(before);
      expect(refused.events).toEqual([]);
      expect(errorsOf(refused.body)).toMatch(/fail|Credit card/);
    },
  );

  it('refuses the signup when an existing card ending in 2 cannot pay (422, state untouched)', () => {
    const s = site();
    const product = s.product();
    const customer = s.customer();
    const profile = s.card(customer, 2);
    s.fail(
      'POST',
      '/subscriptions.json',
      { subscription: { product_id: product, customer_id: customer, payment_profile_id: profile } },
      422,
    );
  });

  it('refuses missing or unknown products, customers and payment profiles (422)', () => {
    const s = site();
    const product = s.product({ require_credit_card: true });
    const customer = s.customer();
    const profile = s.card(customer);
    const other = s.customer();
    const attempt = (fields: Record<string, unknown>) =>
      s.fail('POST', '/subscriptions.json', { subscription: fields }, 422);
    attempt({ customer_id: customer, payment_profile_id: profile });
    attempt({ product_id: 99, customer_id: customer, payment_profile_id: profile });
    attempt({ product_handle: 'nope', customer_id: customer, payment_profile_id: profile });
    attempt({ product_id: product, payment_profile_id: profile });
    attempt({ product_id: product, customer_id: 99, payment_profile_id: profile });
    attempt({ product_id: product, customer_reference: 'nope', payment_profile_id: profile });
    attempt({ product_id: product, customer_id: customer, payment_profile_id: 99 });
    attempt({ product_id: product, customer_id: other, payment_profile_id: profile });
    expect(errorsOf(attempt({ product_id: product, customer_id: customer }))).toMatch(/Credit card/);
    attempt({
      product_id: product,
      customer_attributes: { first_name: '' },
      credit_card_attributes: cardAttributes(1),
    });
    s.fail('POST', '/subscriptions.json', {}, 422);
  });

  it('refuses an automatic signup with charges due and no way to pay; remittance signs up with an open invoice', () => {
    const s = site();
    const product = s.product();
    const customer = s.customer();
    s.fail(
      'POST',
      '/subscriptions.json',
      { subscription: { product_id: product, customer_id: customer } },
      422,
    );
    const body = s.subscribe({
      product_id: product,
      customer_id: customer,
      payment_collection_method: 'remittance',
    });
    expect(body).toMatchObject({
      subscription: { state: 'active', payment_collection_method: 'remittance' },
    });
    expect(s.invoices(num(body, 'subscription', 'id'))).toMatchObject([
      { status: 'open', due_amount: '10.00' },
    ]);
  });
});

describe('subscriptions: read, list, cancel', () => {
  it("reads one (404 when unknown), lists newest first with a comma list of states, lists a customer's", () => {
    const s = site();
    const product = s.product();
    const a = s.subscribed(product);
    const b = s.subscribed(product);
    const c = s.subscribed(product);
    s.ok('DELETE', `/subscriptions/${b.id}.json`);
    s.fail('GET', '/subscriptions/99.json', undefined, 404);
    const ids = (path: string) => arr(s.ok('GET', path)).map((item) => num(item, 'subscription', 'id'));
    expect(ids('/subscriptions.json')).toEqual([c.id, b.id, a.id]);
    expect(ids('/subscriptions.json?direction=asc')).toEqual([a.id, b.id, c.id]);
    expect(ids('/subscriptions.json?state=canceled')).toEqual([b.id]);
    expect(ids('/subscriptions.json?state=canceled,active&direction=asc')).toEqual([a.id, b.id, c.id]);
    expect(ids('/subscriptions.json?state=trialing')).toEqual([]);
    expect(ids(`/customers/${a.customer}/subscriptions.json`)).toEqual([a.id]);
    s.fail('GET', '/customers/99/subscriptions.json', undefined, 404);
  });

  it('cancels now with DELETE and a cancellation_message; a second cancel is 422', () => {
    const s = site();
    const { id } = s.subscribed(s.product());
    s.at('2026-01-20T08:00:00Z');
    const canceled = s.request('DELETE', `/subscriptions/${id}.json`, {
      subscription: { cancellation_message: 'Too expensive' },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      subscription: {
        state: 'canceled',
        previous_state: 'active',
        canceled_at: '2026-01-20T08:00:00Z',
        cancellation_message: 'Too expensive',
        cancellation_method: 'merchant_api',
      },
    });
    expect(canceled.events.map((event) => event.key)).toEqual(['subscription_state_change']);
    expect(str(s.fail('DELETE', `/subscriptions/${id}.json`, undefined, 422), 'errors', 0)).toMatch(
      /already canceled/,
    );
    s.fail('DELETE', '/subscriptions/99.json', undefined, 404);
  });

  it('cancels without a body; a canceled subscription never renews', () => {
    const s = site();
    const { id } = s.subscribed(s.product());
    s.ok('DELETE', `/subscriptions/${id}.json`);
    s.advance('2026-06-01T00:00:00Z');
    expect(s.invoices(id)).toHaveLength(1);
    expect(get(s.subscription(id), 'state')).toBe('canceled');
  });
});
