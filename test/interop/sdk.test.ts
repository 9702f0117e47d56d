/**
 * Interop: the official SDK (@maxio-com/advanced-billing-sdk 6.1.0) drives the real `billing-core serve`
 * over loopback. The SDK validates every answer against its own models (a missing required field, a
 * string where it wants a number or an unknown enum value throws `ResponseValidationError`), so each
 * step passing means the SDK accepts our wire format, and the assertions check the values it decoded.
 * The steps share one server and run in order, each building on the previous one.
 */

import {
  ComponentsController,
  CouponsController,
  CreateInvoiceStatus,
  CustomersController,
  Direction,
  EventKey,
  EventsController,
  GroupTargetType,
  IntervalUnit,
  InvoicesController,
  PricingScheme,
  ProductFamiliesController,
  ProductsController,
  SubscriptionComponentsController,
  SubscriptionGroupsController,
  SubscriptionState,
  SubscriptionStatusController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-key';
const NOW = '2026-03-02T10:00:00Z';

let served: ServedSite | undefined;
let client: LocalClient;

beforeAll(async () => {
  served = await serveSite(
    {
      serviceName: 'chargify',
      subdomain: 'acme',
      apiKeys: [KEY],
      timeZone: 'UTC',
      currency: 'USD',
      taxes: [{ name: 'Sales tax', percentage: '10' }],
    },
    NOW,
  );
  client = served.client(KEY);
});

afterAll(async () => {
  await served?.stop();
});

/** Ids created by earlier steps. */
const ids = { family: 0, component: 0, customer: 0, subscription: 0, coupon: 0, invoice: '', group: '' };

describe('the official SDK against billing-core serve', () => {
  it('creates a product family and a monthly product in it', async () => {
    const families = new ProductFamiliesController(client);
    const created = await families.createProductFamily({
      productFamily: { name: 'Interop plans', handle: 'interop', description: 'Plans for the SDK suite' },
    });
    expect(created.statusCode).toBe(201);
    const family = present(created.result.productFamily, 'product family');
    expect(family).toMatchObject({ name: 'Interop plans', handle: 'interop', createdAt: NOW });
    ids.family = present(family.id, 'family id');

    const products = new ProductsController(client);
    const product = (
      await products.createProduct(String(ids.family), {
        product: {
          name: 'Gold',
          handle: 'gold',
          description: 'Gold plan',
          priceInCents: 4900n,
          interval: 1,
          intervalUnit: IntervalUnit.Month,
          taxable: true,
        },
      })
    ).result.product;
    expect(product).toMatchObject({ handle: 'gold', priceInCents: 4900n, intervalUnit: 'month' });
    expect(product.productFamily?.id).toBe(ids.family);
    expect((await products.readProductByHandle('gold')).result.product.id).toBe(product.id);
  });

  it('creates a per-unit quantity-based component', async () => {
    const components = new ComponentsController(client);
    const component = (
      await components.createQuantityBasedComponent(String(ids.family), {
        quantityBasedComponent: {
          name: 'Seats',
          unitName: 'seat',
          handle: 'seats',
          pricingScheme: PricingScheme.PerUnit,
          unitPrice: '10',
          taxable: true,
        },
      })
    ).result.component;
    expect(component).toMatchObject({
      kind: 'quantity_based_component',
      pricingScheme: 'per_unit',
      unitName: 'seat',
      productFamilyId: ids.family,
    });
    ids.component = present(component.id, 'component id');
    expect((await components.findComponent('seats')).result.component.id).toBe(ids.component);
  });

  it('creates a customer and subscribes them with a card that succeeds', async () => {
    const customers = new CustomersController(client);
    const customer = (
      await customers.createCustomer({
        customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', reference: 'ada' },
      })
    ).result.customer;
    expect(customer).toMatchObject({ firstName: 'Ada', email: 'ada@example.com', taxExempt: false });
    ids.customer = present(customer.id, 'customer id');

    const subscriptions = new SubscriptionsController(client);
    const created = await subscriptions.createSubscription({
      subscription: {
        productHandle: 'gold',
        customerId: ids.customer,
        creditCardAttributes: { fullNumber: '4111111111111111', expirationMonth: 12, expirationYear: 2030 },
      },
    });
    expect(created.statusCode).toBe(201);
    const subscription = present(created.result.subscription, 'subscription');
    expect(subscription).toMatchObject({
      state: SubscriptionState.Active,
      currentPeriodStartedAt: NOW,
      currentPeriodEndsAt: '2026-04-02T10:00:00Z',
      productPriceInCents: 4900n,
    });
    expect(subscription.customer?.id).toBe(ids.customer);
    expect(subscription.creditCard?.maskedCardNumber).toBe('XXXX-XXXX-XXXX-1111');
    ids.subscription = present(subscription.id, 'subscription id');
    // The signup invoice charged the product and its 10% tax.
    const read = (await subscriptions.readSubscription(ids.subscription)).result.subscription;
    expect(read?.totalRevenueInCents).toBe(5390n);
  });

  it('allocates three seats and charges the full period for them at once', async () => {
    const seats = new SubscriptionComponentsController(client);
    const allocation = present(
      (
        await seats.allocateComponent(ids.subscription, ids.component, {
          allocation: { quantity: 3, memo: 'three seats' },
        })
      ).result.allocation,
      'allocation',
    );
    expect(allocation).toMatchObject({
      componentId: ids.component,
      subscriptionId: ids.subscription,
      quantity: 3,
      previousQuantity: 0,
      memo: 'three seats',
      upgradeCharge: 'prorated',
    });
    // Allocated at the very start of the period: the prorated charge is the whole 3 × 10.00 plus 10% tax.
    expect(allocation.payment).toMatchObject({ amountInCents: 3300n, success: true });
    const listed = (await seats.listAllocations(ids.subscription, ids.component)).result;
    expect(listed.map((entry) => entry.allocation?.allocationId)).toEqual([allocation.allocationId]);
  });

  it('creates a coupon, then an ad hoc invoice using it, and issues it', async () => {
    const coupons = new CouponsController(client);
    const coupon = present(
      (
        await coupons.createCoupon(ids.family, {
          coupon: { name: 'Ten off', code: 'tenoff', description: 'Ten percent off', percentage: '10' },
        })
      ).result.coupon,
      'coupon',
    );
    expect(coupon).toMatchObject({ code: 'TENOFF', percentage: '10', productFamilyId: ids.family });
    ids.coupon = present(coupon.id, 'coupon id');
    expect((await coupons.findCoupon(ids.family, 'TENOFF')).result.coupon?.id).toBe(ids.coupon);

    const invoices = new InvoicesController(client);
    const created = await invoices.createInvoice(ids.subscription, {
      invoice: {
        status: CreateInvoiceStatus.Draft,
        lineItems: [{ title: 'Setup', quantity: 2, unitPrice: '25.00', taxable: true }],
        coupons: [{ code: 'TENOFF' }],
        memo: 'One-off setup',
      },
    });
    expect(created.statusCode).toBe(201);
    const draft = created.result.invoice;
    expect(draft).toMatchObject({
      status: 'draft',
      role: 'adhoc',
      subscriptionId: ids.subscription,
      subtotalAmount: '50.00',
      discountAmount: '5.00',
      taxAmount: '4.50',
      totalAmount: '49.50',
    });
    expect(draft.discounts?.map((discount) => [discount.code, discount.sourceType])).toEqual([
      ['TENOFF', 'Coupon'],
    ]);
    expect(draft.taxes?.map((tax) => [tax.title, tax.percentage, tax.taxAmount])).toEqual([
      ['Sales tax', '10', '4.50'],
    ]);
    ids.invoice = present(draft.uid, 'invoice uid');

    const issued = (await invoices.issueInvoice(ids.invoice)).result;
    // The card on file pays it at once.
    expect(issued).toMatchObject({
      uid: ids.invoice,
      status: 'paid',
      paidAmount: '49.50',
      dueAmount: '0.00',
    });
    expect(issued.payments?.map((payment) => payment.appliedAmount)).toEqual(['49.50']);
    // serviceName "chargify": the SPEC's svc_id is spoken as the SDK's chargify_id.
    expect(issued.customer?.chargifyId).toBe(ids.customer);
    expect((await invoices.readInvoice(ids.invoice)).result.status).toBe('paid');
  });

  it('lists the events, the subscription events and their count', async () => {
    const events = new EventsController(client);
    const all = (await events.listEvents({ perPage: 200, direction: Direction.Asc })).result;
    const keys = all.map((entry) => entry.event.key);
    expect(keys).toEqual(expect.arrayContaining(['customer_create', 'signup_success', 'invoice_issued']));
    const eventIds = all.map((entry) => entry.event.id);
    expect(eventIds).toEqual([...eventIds].sort((a, b) => (a < b ? -1 : 1)));

    const issuedRoles = all
      .filter((entry) => entry.event.key === EventKey.InvoiceIssued)
      .map((entry) => (entry.event.eventSpecificData as { role?: string } | null)?.role);
    // docs/events.md: signup and ad hoc invoices alike record invoice_issued.
    expect(issuedRoles).toEqual(expect.arrayContaining(['signup', 'adhoc']));
    const issued = all.find(
      (entry) =>
        entry.event.key === EventKey.InvoiceIssued &&
        (entry.event.eventSpecificData as { role?: string } | null)?.role === 'adhoc',
    )?.event;
    expect(issued?.eventSpecificData).toMatchObject({ totalAmount: '49.50', paidAmount: '49.50' });
    const allocation = all.find((entry) => entry.event.key === EventKey.ComponentAllocationChange)?.event;
    expect(allocation?.eventSpecificData).toMatchObject({ previousAllocation: 0, newAllocation: 3 });

    const filtered = (
      await events.listEvents({ filter: [EventKey.SignupSuccess, EventKey.InvoiceIssued] })
    ).result.map((entry) => entry.event.key);
    // Newest first: the ad hoc and the allocation invoices, the signup, and the signup invoice before it.
    expect(filtered).toEqual(['invoice_issued', 'invoice_issued', 'signup_success', 'invoice_issued']);

    const ofSubscription = (await events.listSubscriptionEvents({ subscriptionId: ids.subscription })).result;
    expect(ofSubscription.every((entry) => entry.event.subscriptionId === ids.subscription)).toBe(true);
    expect(ofSubscription.length).toBeGreaterThan(0);
    const count = (await events.readEventsCount({})).result;
    expect(count.count).toBe(all.length);
  });

  it("updates the customer's tax identifier", async () => {
    const customers = new CustomersController(client);
    const updated = (
      await customers.updateCustomer(ids.customer, {
        customer: {
          vat_country: 'DE',
          entity_identifier_kind: 'vat_eu',
          entity_identifier_value: 'de123456789',
          taxExempt: true,
          taxExemptReason: 'Reverse charge',
        },
      })
    ).result.customer;
    expect(updated).toMatchObject({
      id: ids.customer,
      vatNumber: 'DE123456789',
      taxExempt: true,
      taxExemptReason: 'Reverse charge',
      entity_identifier_kind: 'vat_eu',
      entity_identifier_value: 'DE123456789',
      vat_country: 'DE',
    });
    expect((await customers.readCustomer(ids.customer)).result.customer.vatNumber).toBe('DE123456789');
  });

  it('adds the subscription to a group and looks the group up by subscription', async () => {
    const groups = new SubscriptionGroupsController(client);
    const added = await groups.addSubscriptionToGroup(ids.subscription, {
      group: { target: { type: GroupTargetType.Customer, id: ids.customer } },
    });
    expect(added.result.subscriptionGroup).toMatchObject({
      customerId: ids.customer,
      subscriptionIds: [ids.subscription],
      paymentCollectionMethod: 'automatic',
    });

    const found = (await groups.findSubscriptionGroup(String(ids.subscription))).result;
    expect(found).toMatchObject({
      customerId: ids.customer,
      subscriptionIds: [ids.subscription],
      primarySubscriptionId: ids.subscription,
      state: SubscriptionState.Active,
      customer: { firstName: 'Ada', email: 'ada@example.com' },
    });
    ids.group = present(found.uid, 'group uid');
    expect((await groups.readSubscriptionGroup(ids.group)).result.subscriptionIds).toEqual([
      ids.subscription,
    ]);
  });

  it('cancels the subscription and reactivates it', async () => {
    const status = new SubscriptionStatusController(client);
    const canceled = present(
      (
        await status.cancelSubscription(ids.subscription, {
          subscription: { cancellationMessage: 'Taking a break' },
        })
      ).result.subscription,
      'canceled subscription',
    );
    expect(canceled).toMatchObject({
      state: SubscriptionState.Canceled,
      canceledAt: NOW,
      cancellationMessage: 'Taking a break',
    });

    const reactivated = present(
      (await status.reactivateSubscription(ids.subscription)).result.subscription,
      'reactivated subscription',
    );
    expect(reactivated).toMatchObject({ state: SubscriptionState.Active, previousState: 'canceled' });
    expect(reactivated.canceledAt ?? null).toBeNull();
    expect(reactivated.cancellationMessage ?? null).toBeNull();
    const events = (
      await new EventsController(client).listSubscriptionEvents({ subscriptionId: ids.subscription })
    ).result;
    expect(events.map((entry) => entry.event.key)).toContain('subscription_state_change');
  });
});
