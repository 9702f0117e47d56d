/**
 * Interop, the billing lifecycle: the SDK subscribes, allocates, records usage and events, runs ad hoc,
 * advance and proforma invoices, previews and migrates, uses the portal, payment profiles, status
 * changes and groups against a spawned `billing-core serve`; then time moves on through renewals and a
 * failing trial, and the whole event log is read through the SDK. Its validation of
 * `event_specific_data` is the strictest part of the SDK (each key must match exactly one official
 * shape), so every key recorded here is one the SDK accepts.
 */

import {
  AdvanceInvoiceController,
  APIExportsController,
  AutoInvite,
  BillingPortalController,
  CouponsController,
  CustomersController,
  Direction,
  EventsController,
  GroupTargetType,
  InvoicePaymentMethodType,
  InvoicesController,
  PaymentProfilesController,
  ProformaInvoicesController,
  SubscriptionComponentsController,
  SubscriptionGroupsController,
  SubscriptionProductsController,
  SubscriptionStatusController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, createCatalog } from './sdk-catalog-fixture.js';
import { type LocalClient, moveServerClock, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-lifecycle';
const START = '2026-03-02T10:00:00Z';

let served: ServedSite | undefined;
let client: LocalClient;
let catalog: Catalog;

beforeAll(async () => {
  served = await serveSite(
    {
      serviceName: 'chargify',
      subdomain: 'acme',
      apiKeys: [KEY],
      timeZone: 'UTC',
      metrics: [{ id: 1, name: 'API calls', streamHandle: 'api-calls', aggregation: 'count' }],
      dunning: { retryDays: [1, 2], finalAction: 'canceled' },
    },
    START,
  );
  client = served.client(KEY);
  catalog = await createCatalog(client, 'lifecycle');
});

afterAll(async () => {
  await served?.stop();
});

async function moveClock(now: string): Promise<void> {
  expect(await moveServerClock(served, KEY, now)).toBe(200);
}

const ids = { customer: 0, subscription: 0 };

describe('the official SDK through the billing lifecycle', () => {
  it('subscribes with components, allocates, previews, and records metered usage and events', async () => {
    const customers = new CustomersController(client);
    ids.customer = present(
      (
        await customers.createCustomer({
          customer: {
            firstName: 'Grace',
            lastName: 'Hopper',
            email: 'grace@example.com',
            reference: 'grace',
            country: 'US',
          },
        })
      ).result.customer.id,
      'customer id',
    );
    expect((await customers.readCustomerByReference('grace')).result.customer.id).toBe(ids.customer);

    const subscriptions = new SubscriptionsController(client);
    const subscription = present(
      (
        await subscriptions.createSubscription({
          subscription: {
            productHandle: 'silver',
            customerId: ids.customer,
            creditCardAttributes: { fullNumber: '1', expirationMonth: 1, expirationYear: 2040 },
          },
        })
      ).result.subscription,
      'subscription',
    );
    ids.subscription = present(subscription.id, 'subscription id');
    expect(subscription.totalRevenueInCents).toBe(2900n);
    expect((await customers.listCustomerSubscriptions(ids.customer)).result).toHaveLength(1);
    expect((await subscriptions.listSubscriptions({})).result.map((entry) => entry.subscription?.id)).toEqual(
      [ids.subscription],
    );

    const seats = new SubscriptionComponentsController(client);
    await seats.allocateComponent(ids.subscription, catalog.seats, { allocation: { quantity: 2 } });
    const held = (await seats.readSubscriptionComponent(ids.subscription, catalog.seats)).result.component;
    expect(held).toMatchObject({ componentId: catalog.seats, allocatedQuantity: 2 });
    const preview = (
      await seats.previewAllocations(ids.subscription, {
        allocations: [{ componentId: catalog.seats, quantity: 7 }],
      })
    ).result.allocationPreview;
    expect(preview?.allocations?.map((allocation) => allocation.quantity)).toEqual([7]);
    const allocated = (
      await seats.allocateComponents(ids.subscription, {
        allocations: [{ componentId: catalog.seats, quantity: 5 }],
      })
    ).result;
    expect(allocated.map((entry) => entry.allocation?.previousQuantity)).toEqual([2]);

    const usage = (await seats.createUsage(ids.subscription, catalog.calls, { usage: { quantity: 150 } }))
      .result.usage;
    expect(usage).toMatchObject({ quantity: 150 });
    const usages = (await seats.listUsages({ subscriptionId: ids.subscription, componentId: catalog.calls }))
      .result;
    expect(usages.map((entry) => entry.usage?.quantity)).toEqual([150]);
    const ingested = await seats.bulkRecordEvents('api-calls', undefined, [
      { chargify: { subscriptionId: ids.subscription, timestamp: START } },
    ]);
    // The event is billed: the renewal preview of the next step counts it.
    expect(ingested.statusCode).toBeLessThan(300);
  });

  it('runs invoices, advance invoices, proformas, previews and a migration', async () => {
    const invoices = new InvoicesController(client);
    const open = (
      await invoices.createInvoice(ids.subscription, {
        invoice: {
          lineItems: [
            { componentId: catalog.seats, quantity: 2 },
            { title: 'Training', quantity: '1.5', unitPrice: 40 },
          ],
          coupons: [{ code: 'WELCOME', percentage: 5, description: 'Welcome' }],
          netTerms: 10,
          billingAddress: { firstName: 'Grace', address: '1 Main St', city: 'Arlington', country: 'US' },
        },
      })
    ).result.invoice;
    // 2 × 10.00 + 1.5 × 40.00 = 80.00, less 5%.
    expect(open).toMatchObject({
      status: 'open',
      subtotalAmount: '80.00',
      discountAmount: '4.00',
      totalAmount: '76.00',
    });
    expect(open.billingAddress).toMatchObject({ street: '1 Main St', city: 'Arlington', country: 'US' });
    const uid = present(open.uid, 'invoice uid');
    const partly = (
      await invoices.recordPaymentForInvoice(uid, {
        payment: { amount: '6.00', memo: 'Cheque', method: InvoicePaymentMethodType.Check },
      })
    ).result;
    expect(partly).toMatchObject({ paidAmount: '6.00', dueAmount: '70.00' });
    const voided = (await invoices.voidInvoice(uid, { mVoid: { reason: 'Entered twice' } })).result;
    expect(voided.status).toBe('voided');
    const listed = (await invoices.listInvoices({ lineItems: true, payments: true })).result.invoices;
    expect(listed.map((invoice) => invoice.uid)).toContain(uid);

    const advance = new AdvanceInvoiceController(client);
    const early = (await advance.issueAdvanceInvoice(ids.subscription, { force: true })).result;
    expect(early).toMatchObject({ status: 'paid', role: 'renewal', subscriptionId: ids.subscription });
    expect((await advance.readAdvanceInvoice(ids.subscription)).result.uid).toBe(early.uid);

    const proformas = new ProformaInvoicesController(client);
    const previewed = (await proformas.previewProformaInvoice(ids.subscription)).result;
    const proforma = (await proformas.createProformaInvoice(ids.subscription)).result;
    expect(proforma).toMatchObject({ status: 'draft', totalAmount: previewed.totalAmount });
    const proformaUid = present(proforma.uid, 'proforma uid');
    const saved = (await proformas.listProformaInvoices({ subscriptionId: ids.subscription })).result;
    expect(saved.proformaInvoices?.map((entry) => entry.uid)).toEqual([proformaUid]);
    expect((await proformas.readProformaInvoice(proformaUid)).result.uid).toBe(proformaUid);
    expect(
      (await proformas.voidProformaInvoice(proformaUid, { mVoid: { reason: 'Not needed' } })).result.status,
    ).toBe('voided');

    const status = new SubscriptionStatusController(client);
    const renewal = (await status.previewRenewal(ids.subscription, {})).result.renewalPreview;
    // The advance invoice above billed Silver and the seats of the next period: the renewal it covers
    // bills only the arrears, 150 calls (the 50 above 100 at 0.50) and one event at 0.10.
    expect(renewal?.subtotalInCents).toBe(2510n);

    const products = new SubscriptionProductsController(client);
    const migration = (
      await products.previewSubscriptionProductMigration(ids.subscription, {
        migration: { productHandle: 'gold' },
      })
    ).result.migration;
    // Still at the very start of the period: the whole of Silver is credited against the whole of Gold.
    expect(migration).toMatchObject({
      proratedAdjustmentInCents: -2900n,
      chargeInCents: 4900n,
      creditAppliedInCents: 2900n,
      paymentDueInCents: 2000n,
    });
    const migrated = (
      await products.migrateSubscriptionProduct(ids.subscription, { migration: { productHandle: 'gold' } })
    ).result.subscription;
    expect(migrated?.product?.id).toBe(catalog.gold);
  });

  it('manages the portal, payment profiles, pending cancellation, hold and groups', async () => {
    const portal = new BillingPortalController(client);
    const enabled = (await portal.enableBillingPortalForCustomer(ids.customer, AutoInvite.Yes)).result
      .customer;
    expect(enabled.portalInviteLastSentAt).toBe(START);
    const link = (await portal.readBillingPortalLink(ids.customer)).result;
    expect(link).toMatchObject({ fetchCount: 1, createdAt: START });
    await portal.resendBillingPortalInvitation(ids.customer);
    await portal.revokeBillingPortalAccess(ids.customer);

    const profiles = new PaymentProfilesController(client);
    const added = await profiles.createPaymentProfile({
      paymentProfile: {
        customerId: ids.customer,
        fullNumber: '4242424242424241',
        expirationMonth: 12,
        expirationYear: 2031,
      },
    });
    const profileId = present(added.result.paymentProfile.id, 'payment profile id');
    expect((await profiles.readPaymentProfile(profileId)).result.paymentProfile.id).toBe(profileId);
    expect((await profiles.listPaymentProfiles({ customerId: ids.customer })).result).toHaveLength(2);
    await profiles.sendRequestUpdatePaymentEmail(ids.subscription);

    const status = new SubscriptionStatusController(client);
    const pending = await status.initiateDelayedCancellation(ids.subscription, {
      subscription: { cancellationMessage: 'Maybe later' },
    });
    expect(pending.result.message).toMatch(/end of the current billing period/);
    await status.cancelDelayedCancellation(ids.subscription);
    const paused = (await status.pauseSubscription(ids.subscription, {})).result.subscription;
    expect(paused?.state).toBe('on_hold');
    const resumed = (await status.resumeSubscription(ids.subscription)).result.subscription;
    expect(resumed?.state).toBe('active');

    const groups = new SubscriptionGroupsController(client);
    await groups.addSubscriptionToGroup(ids.subscription, {
      group: { target: { type: GroupTargetType.Self } },
    });
    const group = (await groups.findSubscriptionGroup(String(ids.subscription))).result;
    const uid = present(group.uid, 'group uid');
    expect(
      (await groups.listSubscriptionGroups({})).result.subscriptionGroups?.map((entry) => entry.uid),
    ).toEqual([uid]);
    const members = await groups.updateSubscriptionGroupMembers(uid, {
      subscriptionGroup: { memberIds: [ids.subscription] },
    });
    expect(members.result.subscriptionGroup.subscriptionIds).toEqual([ids.subscription]);
    await groups.removeSubscriptionFromGroup(ids.subscription);

    const exports = new APIExportsController(client);
    const job = (await exports.exportProformaInvoices()).result.batchjob;
    const batch = present(job?.id, 'export batch id');
    expect((await exports.readProformaInvoicesExport(String(batch))).result.batchjob?.id).toBe(batch);
  });

  it('lists every event recorded through renewals and a failing trial, all in the official shapes', async () => {
    const coupons = new CouponsController(client);
    await coupons.createCoupon(catalog.family, {
      coupon: { name: 'Five off', code: 'FIVE', description: 'Five dollars', amountInCents: 500n },
    });
    expect((await coupons.validateCoupon('FIVE', catalog.family)).result.coupon?.amountInCents).toBe(500n);

    const declining = await new SubscriptionsController(client).createSubscription({
      subscription: {
        productHandle: 'trial',
        customerAttributes: { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
        creditCardAttributes: { fullNumber: '4242424242424242', expirationMonth: 1, expirationYear: 2040 },
      },
    });
    expect(declining.result.subscription?.state).toBe('trialing');
    for (const now of [
      '2026-03-09T11:00:00Z',
      '2026-03-10T11:00:00Z',
      '2026-03-12T11:00:00Z',
      '2026-04-03T11:00:00Z',
    ])
      await moveClock(now);

    const events = new EventsController(client);
    const all = [];
    for (let page = 1; ; page += 1) {
      const listed = (await events.listEvents({ page, perPage: 200, direction: Direction.Asc })).result;
      all.push(...listed);
      if (listed.length < 200) break;
    }
    expect((await events.readEventsCount({})).result.count).toBe(all.length);
    const keys = new Set(all.map((entry) => entry.event.key));
    expect([...keys]).toEqual(
      expect.arrayContaining([
        'signup_success',
        'component_allocation_change',
        'metered_usage',
        'invoice_issued',
        'payment_success',
        'payment_failure',
        'pending_cancellation_change',
        'subscription_product_change',
        'subscription_state_change',
        'proforma_invoice_issued',
        'statement_closed',
        'renewal_success',
        'renewal_failure',
      ]),
    );
  });
});
