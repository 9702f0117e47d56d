/**
 * Interop, subscription management through the official SDK: update (reference, billing date, delayed
 * product change, card, collection method, snap day, component custom prices), prepaid configuration, lookup, signup preview, notes, coupons, payment profile
 * changes, hold resumption, retry and cancel dunning, activation, override, purge, and the group
 * lifecycle (signup, delayed cancel and its removal, cancel, reactivate). Every answer goes through the
 * SDK's validation; in-process, the books and the state are checked after every step. The event log is
 * read back through the SDK at the end, so every key these operations record is one the SDK accepts.
 */

import {
  CollectionMethod,
  CouponsController,
  CustomersController,
  Direction,
  EventsController,
  PaymentProfilesController,
  PricingScheme,
  SnapDay,
  SubscriptionComponentsController,
  SubscriptionGroupStatusController,
  SubscriptionGroupsController,
  SubscriptionNotesController,
  SubscriptionPurgeType,
  SubscriptionStatusController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../src/testing/index.js';
import { type Catalog, createCatalog } from './sdk-catalog-fixture.js';
import { type LocalClient, moveServerClock, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-management';
const START = '2026-03-02T10:00:00Z';
const CARD = { fullNumber: '4111111111111111', expirationMonth: 1, expirationYear: 2040 };

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
      dunning: { retryDays: [3, 6], finalAction: 'canceled' },
    },
    START,
  );
  client = served.client(KEY);
  catalog = await createCatalog(client, 'management');
});

afterAll(async () => {
  await served?.stop();
});

// In-process the state is at hand: the books and the state invariants hold after every step.
afterEach(() => {
  const state = served?.state?.();
  if (state === undefined) return;
  expect(checkLedger(state)).toEqual([]);
  expect(checkState(state)).toEqual([]);
});

const ids = { customer: 0, subscription: 0, trial: 0, card: 0, second: 0 };

describe('the official SDK manages subscriptions', () => {
  it('updates a subscription and finds it by reference', async () => {
    const subscriptions = new SubscriptionsController(client);
    const created = present(
      (
        await subscriptions.createSubscription({
          subscription: {
            productHandle: 'gold',
            customerAttributes: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
            creditCardAttributes: CARD,
          },
        })
      ).result.subscription,
      'subscription',
    );
    ids.subscription = present(created.id, 'id');
    ids.customer = present(created.customer?.id, 'customer id');
    ids.card = present(created.creditCard?.id, 'card id');

    const updated = present(
      (
        await subscriptions.updateSubscription(ids.subscription, {
          subscription: { reference: 'mgmt-a', netTerms: 15, nextBillingAt: '2026-03-20T10:00:00Z' },
        })
      ).result.subscription,
      'updated',
    );
    expect(updated.reference).toBe('mgmt-a');
    expect(updated.netTerms).toBe(15);
    expect(updated.currentPeriodEndsAt).toBe('2026-03-20T10:00:00Z');

    const delayed = present(
      (
        await subscriptions.updateSubscription(ids.subscription, {
          subscription: { productId: catalog.silver, productChangeDelayed: true },
        })
      ).result.subscription,
      'delayed',
    );
    expect(delayed.nextProductId).toBe(catalog.silver);
    expect(delayed.product?.id).toBe(catalog.gold);

    const found = (await subscriptions.findSubscription('mgmt-a')).result.subscription;
    expect(found?.id).toBe(ids.subscription);
    await expect(subscriptions.findSubscription('nobody')).rejects.toThrow();
  });

  it('sets a prepaid configuration, merged on a second call and shown on the subscription', async () => {
    const subscriptions = new SubscriptionsController(client);
    const configured = (
      await subscriptions.updatePrepaidSubscriptionConfiguration(ids.subscription, {
        prepaidConfiguration: {
          initialFundingAmountInCents: BigInt(50_000),
          replenishToAmountInCents: BigInt(50_000),
          autoReplenish: false,
          replenishThresholdAmountInCents: BigInt(10_000),
        },
      })
    ).result.prepaidConfiguration;
    expect(configured.id).toBe(ids.subscription);
    expect(configured.replenishThresholdAmountInCents).toBe(BigInt(10_000));
    const merged = (
      await subscriptions.updatePrepaidSubscriptionConfiguration(ids.subscription, {
        prepaidConfiguration: { autoReplenish: true },
      })
    ).result.prepaidConfiguration;
    expect(merged.autoReplenish).toBe(true);
    expect(merged.replenishToAmountInCents).toBe(BigInt(50_000));
    const read = present(
      (await subscriptions.readSubscription(ids.subscription)).result.subscription,
      'read',
    );
    expect(read.prepaidConfiguration?.autoReplenish).toBe(true);
    await expect(
      subscriptions.updatePrepaidSubscriptionConfiguration(ids.subscription, {
        prepaidConfiguration: { replenishToAmountInCents: BigInt(100) },
      }),
    ).rejects.toThrow();
  });

  it('snaps a subscription to a day of the month and to its end, and prices a component', async () => {
    const subscriptions = new SubscriptionsController(client);
    const created = present(
      (
        await subscriptions.createSubscription({
          subscription: { productHandle: 'gold', customerId: ids.customer, creditCardAttributes: CARD },
        })
      ).result.subscription,
      'created',
    );
    const id = present(created.id, 'id');
    const toEnd = present(
      (await subscriptions.updateSubscription(id, { subscription: { snapDay: SnapDay.End } })).result
        .subscription,
      'snapped',
    );
    expect(toEnd.snapDay).toBe('end');
    expect(toEnd.currentPeriodEndsAt).toBe('2026-03-31T10:00:00Z');
    const toFifteenth = present(
      (await subscriptions.updateSubscription(id, { subscription: { snapDay: 15 } })).result.subscription,
      'snapped',
    );
    expect(toFifteenth.snapDay).toBe('15');
    expect(toFifteenth.currentPeriodEndsAt).toBe('2026-03-15T10:00:00Z');
    await expect(subscriptions.updateSubscription(id, { subscription: { snapDay: 30 } })).rejects.toThrow();
    const priced = await subscriptions.updateSubscription(id, {
      subscription: {
        components: [
          {
            componentId: catalog.seats,
            customPrice: {
              pricingScheme: PricingScheme.PerUnit,
              prices: [{ startingQuantity: 1, unitPrice: '7' }],
            },
          },
        ],
      },
    });
    expect(priced.statusCode).toBe(200);
    const held = (
      await new SubscriptionComponentsController(client).listSubscriptionComponents({ subscriptionId: id })
    ).result;
    const seats = held.find((item) => item.component?.componentId === catalog.seats);
    expect(seats?.component?.pricePointType).toBe('custom');
    await new SubscriptionStatusController(client).cancelSubscription(id);
  });

  it('previews a signup without creating anything', async () => {
    const subscriptions = new SubscriptionsController(client);
    const before = (await subscriptions.listSubscriptions({})).result.length;
    const preview = (
      await subscriptions.previewSubscription({
        subscription: { productHandle: 'gold', customerId: ids.customer },
      })
    ).result.subscriptionPreview;
    expect(preview?.currentBillingManifest?.totalInCents).toBe(4900n);
    expect(preview?.currentBillingManifest?.lineItems?.[0]?.kind).toBe('baseline');
    expect(preview?.nextBillingManifest?.totalInCents).toBe(4900n);
    expect((await subscriptions.listSubscriptions({})).result).toHaveLength(before);
  });

  it('keeps notes', async () => {
    const notes = new SubscriptionNotesController(client);
    const note = present(
      (await notes.createSubscriptionNote(ids.subscription, { note: { body: 'First call', sticky: false } }))
        .result.note.id,
      'note id',
    );
    await notes.createSubscriptionNote(ids.subscription, { note: { body: 'Pinned', sticky: true } });
    const listed = (await notes.listSubscriptionNotes({ subscriptionId: ids.subscription })).result;
    expect(listed.map((entry) => entry.note.body)).toEqual(['Pinned', 'First call']);
    expect((await notes.readSubscriptionNote(ids.subscription, note)).result.note.body).toBe('First call');
    const updated = await notes.updateSubscriptionNote(ids.subscription, note, {
      note: { body: 'Second call', sticky: false },
    });
    expect(updated.result.note.body).toBe('Second call');
    expect((await notes.deleteSubscriptionNote(ids.subscription, note)).statusCode).toBe(200);
    expect((await notes.listSubscriptionNotes({ subscriptionId: ids.subscription })).result).toHaveLength(1);
  });

  it('adds and removes coupons', async () => {
    const coupons = new CouponsController(client);
    for (const code of ['TEN', 'FIVE'])
      await coupons.createCoupon(catalog.family, {
        coupon: { name: code, code, description: code, percentage: '10', recurring: true, stackable: true },
      });
    const subscriptions = new SubscriptionsController(client);
    const added = (
      await subscriptions.applyCouponsToSubscription(ids.subscription, undefined, { codes: ['TEN', 'FIVE'] })
    ).result.subscription;
    expect(added?.couponCodes).toEqual(['TEN', 'FIVE']);
    const removed = await subscriptions.removeCouponFromSubscription(ids.subscription, 'FIVE');
    expect(removed.statusCode).toBe(200);
    expect((await subscriptions.readSubscription(ids.subscription)).result.subscription?.couponCodes).toEqual(
      ['TEN'],
    );
  });

  it('changes payment profiles', async () => {
    const profiles = new PaymentProfilesController(client);
    const second = present(
      (
        await profiles.createPaymentProfile({
          paymentProfile: {
            customerId: ids.customer,
            fullNumber: '4111111111111112',
            expirationMonth: 2,
            expirationYear: 2041,
          },
        })
      ).result.paymentProfile.id,
      'second profile',
    );
    ids.second = second;
    const changed = await profiles.changeSubscriptionDefaultPaymentProfile(ids.subscription, second);
    expect(changed.result.paymentProfile.id).toBe(second);
    const updated = await profiles.updatePaymentProfile(second, {
      paymentProfile: { firstName: 'Kelly', billingCity: 'Boulder' },
    });
    expect(updated.result.paymentProfile.firstName).toBe('Kelly');
    const bank = present(
      (
        await profiles.createPaymentProfile({
          paymentProfile: {
            customerId: ids.customer,
            bankName: 'Acme Bank',
            bankRoutingNumber: '021000021',
            bankAccountNumber: '12345671',
          },
        })
      ).result.paymentProfile.id,
      'bank profile',
    );
    const verified = await profiles.verifyBankAccount(bank, {
      bankAccountVerification: { deposit1InCents: 32n, deposit2InCents: 45n },
    });
    expect(verified.result.paymentProfile.id).toBe(bank);
  });

  it('reschedules a hold, retries and cancels dunning', async () => {
    const status = new SubscriptionStatusController(client);
    const held = await status.pauseSubscription(ids.subscription, {
      hold: { automaticallyResumeAt: '2026-04-01T00:00:00Z' },
    });
    expect(held.result.subscription?.state).toBe('on_hold');
    const moved = await status.updateAutomaticSubscriptionResumption(ids.subscription, {
      hold: { automaticallyResumeAt: '2026-03-10T00:00:00Z' },
    });
    expect(moved.result.subscription?.automaticallyResumeAt).toBe('2026-03-10T00:00:00Z');
    // The hold resumes by itself; the renewal at the moved billing date fails on the second card.
    expect(await moveServerClock(served, KEY, '2026-03-21T00:00:00Z')).toBe(200);
    const subscriptions = new SubscriptionsController(client);
    const pastDue = (await subscriptions.readSubscription(ids.subscription)).result.subscription;
    expect(pastDue?.state).toBe('past_due');
    expect(pastDue?.product?.id).toBe(catalog.silver);
    expect((await status.retrySubscription(ids.subscription)).result.subscription?.state).toBe('past_due');
    await new PaymentProfilesController(client).changeSubscriptionDefaultPaymentProfile(
      ids.subscription,
      ids.card,
    );
    expect((await status.retrySubscription(ids.subscription)).result.subscription?.state).toBe('active');
    expect((await status.cancelDunning(ids.subscription)).result.subscription?.state).toBe('active');
  });

  it('activates a trial, overrides dates, changes the collection method, and purges', async () => {
    const subscriptions = new SubscriptionsController(client);
    const trial = present(
      (
        await subscriptions.createSubscription({
          subscription: { productHandle: 'trial', customerId: ids.customer, paymentProfileId: ids.card },
        })
      ).result.subscription?.id,
      'trial id',
    );
    const activated = (await subscriptions.activateSubscription(trial, { revertOnFailure: true })).result
      .subscription;
    expect(activated?.state).toBe('active');
    const override = await subscriptions.overrideSubscription(trial, {
      subscription: { activatedAt: '2025-12-01T00:00:00Z', expiresAt: '2027-01-01T00:00:00Z' },
    });
    expect(override.statusCode).toBe(204);
    const remittance = await subscriptions.updateSubscription(trial, {
      subscription: { paymentCollectionMethod: CollectionMethod.Remittance },
    });
    expect(remittance.result.subscription?.paymentCollectionMethod).toBe('remittance');

    const stranger = present(
      (
        await new CustomersController(client).createCustomer({
          customer: { firstName: 'Temp', lastName: 'Test', email: 'temp@example.com' },
        })
      ).result.customer.id,
      'stranger',
    );
    const doomed = present(
      (
        await subscriptions.createSubscription({
          subscription: {
            productHandle: 'trial',
            customerId: stranger,
            paymentCollectionMethod: CollectionMethod.Remittance,
          },
        })
      ).result.subscription?.id,
      'doomed',
    );
    const purged = await subscriptions.purgeSubscription(doomed, stranger, [SubscriptionPurgeType.Customer]);
    expect(purged.result.subscription?.id).toBe(doomed);
    await expect(subscriptions.readSubscription(doomed)).rejects.toThrow();
  });

  it('signs up with a group and runs its lifecycle', async () => {
    const groups = new SubscriptionGroupsController(client);
    const signup = (
      await groups.signupWithSubscriptionGroup({
        subscriptionGroup: {
          payerAttributes: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
          creditCardAttributes: { fullNumber: '4111111111111111', expirationMonth: 1, expirationYear: 2040 },
          subscriptions: [{ productHandle: 'gold', primary: true }, { productHandle: 'silver' }],
        },
      })
    ).result;
    const uid = present(signup.uid, 'uid');
    expect(signup.subscriptionIds).toHaveLength(2);
    expect(signup.subscriptions?.map((entry) => entry.productId)).toEqual([catalog.gold, catalog.silver]);

    const status = new SubscriptionGroupStatusController(client);
    expect((await status.initiateDelayedCancellationForGroup(uid)).statusCode).toBe(200);
    expect((await status.cancelDelayedCancellationForGroup(uid)).statusCode).toBe(200);
    expect((await status.cancelSubscriptionsInGroup(uid, {})).statusCode).toBe(200);
    const reactivated = (await status.reactivateSubscriptionGroup(uid, { resume: true })).result;
    expect(reactivated.state).toBe('active');

    const profiles = new PaymentProfilesController(client);
    const full = (await groups.readSubscriptionGroup(uid)).result;
    const profile = present(full.paymentProfileId, 'group profile');
    expect((await profiles.deleteSubscriptionGroupPaymentProfile(uid, profile)).statusCode).toBe(204);
    expect((await groups.readSubscriptionGroup(uid)).result.paymentProfileId ?? null).toBeNull();
  });

  it('deletes a profile from a subscription, and the event log reads back through the SDK', async () => {
    const profiles = new PaymentProfilesController(client);
    expect((await profiles.deleteSubscriptionsPaymentProfile(ids.subscription, ids.second)).statusCode).toBe(
      204,
    );
    const events = new EventsController(client);
    const all = [];
    for (let page = 1; ; page += 1) {
      const listed = (await events.listEvents({ page, perPage: 200, direction: Direction.Asc })).result;
      all.push(...listed);
      if (listed.length < 200) break;
    }
    const keys = new Set(all.map((entry) => entry.event.key));
    for (const key of [
      'billing_date_change',
      'subscription_product_change',
      'subscription_card_update',
      'payment_collection_method_changed',
      'subscription_deletion',
      'subscription_state_change',
      'subscription_group_signup_success',
    ])
      expect(keys).toContain(key);
    const groupSignup = all.find((entry) => entry.event.key === 'subscription_group_signup_success');
    expect(groupSignup?.event.eventSpecificData).toMatchObject({
      subscriptionGroup: { paymentCollectionMethod: 'automatic' },
    });
  });
});
