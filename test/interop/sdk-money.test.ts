/**
 * Interop, money: the SDK records payments (for a subscription, over several invoices), refunds invoices
 * (external, through the gateway, with apply_credit, voiding), reads credit notes, account balances and
 * prepayments, refunds a prepayment and deducts service credit, against `billing-core serve`; every
 * answer passes the SDK's validation. In-process, the books are audited after every call.
 */

import {
  CreateInvoiceStatus,
  CustomersController,
  EventsController,
  InvoiceEventType,
  InvoicePaymentMethodType,
  InvoicesController,
  SubscriptionGroupInvoiceAccountController,
  SubscriptionGroupsController,
  SubscriptionInvoiceAccountController,
  SubscriptionStatusController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../src/testing/index.js';
import { type Catalog, createCatalog } from './sdk-catalog-fixture.js';
import { type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-money';
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
    },
    START,
  );
  client = served.client(KEY);
  catalog = await createCatalog(client, 'money');
});

afterAll(async () => {
  await served?.stop();
});

afterEach(() => {
  const state = served?.state?.();
  if (state === undefined) return;
  expect(checkLedger(state)).toEqual([]);
  expect(checkState(state)).toEqual([]);
});

/** A new customer subscribed to silver (29.00): by card (paid at signup) or by remittance (left open). */
async function subscribe(reference: string, remittance: boolean): Promise<number> {
  const customer = present(
    (
      await new CustomersController(client).createCustomer({
        customer: { firstName: 'Ada', lastName: reference, email: `${reference}@example.com`, reference },
      })
    ).result.customer.id,
    'customer id',
  );
  const subscription = (
    await new SubscriptionsController(client).createSubscription({
      subscription: {
        productId: catalog.silver,
        customerId: customer,
        ...(remittance
          ? { paymentCollectionMethod: 'remittance' as never }
          : { creditCardAttributes: { fullNumber: '1', expirationMonth: 1, expirationYear: 2040 } }),
      },
    })
  ).result.subscription;
  return present(subscription?.id, 'subscription id');
}

async function firstInvoice(subscriptionId: number) {
  const listed = (await new InvoicesController(client).listInvoices({ subscriptionId, payments: true }))
    .result.invoices;
  return present(listed?.[0], 'invoice');
}

describe('the official SDK moving money', () => {
  it('refunds a card payment through the gateway, partly, then the rest with apply_credit', async () => {
    const invoices = new InvoicesController(client);
    const id = await subscribe('refund-card', false);
    const invoice = await firstInvoice(id);
    const uid = present(invoice.uid, 'uid');
    const paymentId = present(invoice.payments?.[0]?.transactionId, 'payment id');
    const partly = (
      await invoices.refundInvoice(uid, { refund: { amount: '9.00', memo: 'Partial', paymentId } })
    ).result;
    expect(partly).toMatchObject({ status: 'open', refundAmount: '9.00', dueAmount: '9.00' });
    expect(partly.refunds?.[0]).toMatchObject({ paymentId, appliedAmount: '9.00', gatewayUsed: 'bogus' });
    const rest = (
      await invoices.refundInvoice(uid, {
        refund: { amount: '20.00', memo: 'Rest', paymentId, applyCredit: true },
      })
    ).result;
    expect(rest).toMatchObject({ refundAmount: '29.00', creditAmount: '20.00', dueAmount: '9.00' });

    const notes = (await invoices.listCreditNotes({ subscriptionId: id, refunds: true, applications: true }))
      .result.creditNotes;
    expect(notes.map((note) => note.totalAmount)).toEqual(['9.00', '20.00']);
    expect(notes[0]?.refunds?.[0]).toMatchObject({ paymentId, appliedAmount: '9.00' });
    expect(notes[1]?.applications?.[0]).toMatchObject({ invoiceUid: uid, appliedAmount: '20.00' });
    const read = (await invoices.readCreditNote(present(notes[1]?.uid, 'credit note uid'))).result;
    expect(read).toMatchObject({ status: 'applied', originInvoices: [{ uid }] });
  });

  it('refunds an external payment in full and voids the invoice', async () => {
    const invoices = new InvoicesController(client);
    const id = await subscribe('refund-check', true);
    const uid = present((await firstInvoice(id)).uid, 'uid');
    const paid = (
      await invoices.recordPaymentForInvoice(uid, {
        payment: { amount: '29.00', memo: 'Cheque', method: InvoicePaymentMethodType.Check },
      })
    ).result;
    const paymentId = present(paid.payments?.[0]?.transactionId, 'payment id');
    const voided = (
      await invoices.refundInvoice(uid, {
        refund: { amount: '29.00', memo: 'Cancelled order', paymentId, external: true, voidInvoice: true },
      })
    ).result;
    expect(voided).toMatchObject({ status: 'voided', refundAmount: '29.00' });
    expect(voided.refunds?.[0]).toMatchObject({ gatewayUsed: 'external' });
  });

  it('records a payment for a subscription and one over several invoices', async () => {
    const invoices = new InvoicesController(client);
    const first = await subscribe('bulk-one', true);
    const second = await subscribe('bulk-two', true);
    const bulk = (
      await invoices.recordPaymentForSubscription(first, {
        payment: {
          amount: '40.00',
          memo: 'Wire',
          paymentDetails: 'ref 9',
          paymentMethod: InvoicePaymentMethodType.Ach,
        },
      })
    ).result;
    expect(bulk.paidInvoices).toMatchObject([{ status: 'paid', dueAmount: '0.00', paidAmount: '29.00' }]);
    expect(bulk.prepayment).toMatchObject({ subscriptionId: first, amountInCents: 1100n });

    const uid = present((await firstInvoice(second)).uid, 'uid');
    const multi = (
      await invoices.recordPaymentForMultipleInvoices({
        payment: {
          amount: '10.00',
          memo: 'Part',
          method: InvoicePaymentMethodType.Cash,
          applications: [{ invoiceUid: uid, amount: '10.00' }],
        },
      })
    ).result.payment;
    expect(multi).toMatchObject({ totalAmount: '10.00', currencyCode: 'USD' });
    expect(multi.applications?.[0]).toMatchObject({ invoiceUid: uid, appliedAmount: '10.00' });
  });

  it('reads account balances, lists and refunds prepayments, deducts service credit', async () => {
    const account = new SubscriptionInvoiceAccountController(client);
    const id = await subscribe('account', true);
    const prepaid = (
      await account.createPrepayment(id, {
        prepayment: { amount: 25, details: 'Cheque 12', memo: 'Ahead', method: 'check' as never },
      })
    ).result.prepayment;
    const prepaymentId = present(prepaid.id, 'prepayment id');
    await account.issueServiceCredit(id, { serviceCredit: { amount: '8', memo: 'Outage' } });
    await account.deductServiceCredit(id, { deduction: { amount: '3', memo: 'Correction' } });
    const balances = (await account.readAccountBalances(id)).result;
    expect(balances).toMatchObject({
      openInvoices: { balanceInCents: 2900n },
      serviceCredits: { balanceInCents: 500n },
      prepayments: { balanceInCents: 2500n },
    });
    const refunded = (
      await account.refundPrepayment(id, prepaymentId, {
        refund: { amountInCents: null, amount: '5.00', memo: 'Returned', external: true },
      })
    ).result.prepayment;
    expect(refunded).toMatchObject({ remainingAmountInCents: 2000n, refundedAmountInCents: 500n });
    const listed = (await account.listPrepayments({ subscriptionId: id })).result.prepayments;
    expect(listed).toMatchObject([
      { id: Number(prepaymentId), amountInCents: 2500n, remainingAmountInCents: 2000n },
    ]);
  });

  it('reopens a canceled invoice, sends it, refreshes its customer information and lists invoice events', async () => {
    const invoices = new InvoicesController(client);
    const id = await subscribe('upkeep', true);
    const uid = present((await firstInvoice(id)).uid, 'uid');
    await new SubscriptionStatusController(client).cancelSubscription(id);
    const reopened = (await invoices.reopenInvoice(uid)).result;
    expect(reopened).toMatchObject({ uid, status: 'open' });
    const sent = await invoices.sendInvoice(uid, {
      recipientEmails: ['billing@example.com'],
      ccRecipientEmails: ['boss@example.com'],
    });
    expect(sent.statusCode).toBe(204);
    await new CustomersController(client).updateCustomer(present(reopened.customerId, 'customer id'), {
      customer: { lastName: 'Renamed', city: 'Paris' },
    });
    const preview = (await invoices.previewCustomerInformationChanges(uid)).result.changes;
    expect(preview.payer?.after).toMatchObject({ lastName: 'Renamed' });
    expect(preview.billingAddress?.after).toMatchObject({ city: 'Paris' });
    const updated = (await invoices.updateCustomerInformation(uid)).result;
    expect(updated.billingAddress).toMatchObject({ city: 'Paris' });

    const events = (
      await invoices.listInvoiceEvents({ invoiceUid: uid, withChangeInvoiceStatus: 'true', perPage: 50 })
    ).result;
    expect(events.events?.map((event) => event.eventType)).toEqual([
      InvoiceEventType.IssueInvoice,
      InvoiceEventType.ChangeInvoiceStatus,
      InvoiceEventType.ChangeInvoiceStatus,
    ]);
    const all = (await invoices.listInvoiceEvents({})).result.events ?? [];
    const types = new Set(all.map((event) => event.eventType));
    for (const type of [
      'issue_invoice',
      'apply_payment',
      'refund_invoice',
      'void_invoice',
      'apply_credit_note',
    ])
      expect(types).toContain(type);
  });

  it('lists a declined payment and the credits and prepayments a void takes off', async () => {
    const invoices = new InvoicesController(client);
    const account = new SubscriptionInvoiceAccountController(client);
    // A trial charges nothing at signup, so a card that declines (ending 2) can sign up.
    const id = present(
      (
        await new SubscriptionsController(client).createSubscription({
          subscription: {
            productId: catalog.trial,
            customerAttributes: { firstName: 'Ada', lastName: 'Declined', email: 'declined@example.com' },
            creditCardAttributes: { fullNumber: '2', expirationMonth: 1, expirationYear: 2040 },
          },
        })
      ).result.subscription?.id,
      'subscription id',
    );
    await account.createPrepayment(id, {
      prepayment: { amount: 5, details: 'Cheque 13', memo: 'Ahead', method: 'check' as never },
    });
    await account.issueServiceCredit(id, { serviceCredit: { amount: '3', memo: 'Goodwill' } });
    const draft = (
      await invoices.createInvoice(id, {
        invoice: {
          status: CreateInvoiceStatus.Draft,
          lineItems: [{ title: 'Setup', quantity: 1, unitPrice: '30.00' }],
        },
      })
    ).result.invoice;
    const uid = present(draft.uid, 'uid');
    const issued = (await invoices.issueInvoice(uid)).result;
    expect(issued).toMatchObject({ status: 'open', dueAmount: '22.00' });
    await invoices.voidInvoice(uid, { mVoid: { reason: 'Declined' } });
    const events = (await invoices.listInvoiceEvents({ invoiceUid: uid })).result.events ?? [];
    expect(events.map((event) => event.eventType)).toEqual([
      InvoiceEventType.IssueInvoice,
      InvoiceEventType.ApplyCreditNote,
      InvoiceEventType.ApplyPayment,
      InvoiceEventType.FailedPayment,
      InvoiceEventType.CreateCreditNote,
      InvoiceEventType.RemovePayment,
      InvoiceEventType.VoidInvoice,
    ]);
    // The SDK picks the event's model among several that accept its data (its discriminator looks for the
    // mapped name), so a field may come back under either spelling.
    const field = (index: number, mapped: string, wire: string) => {
      const data = (events[index]?.eventData ?? {}) as Record<string, unknown>;
      return data[mapped] ?? data[wire];
    };
    expect(field(3, 'amountInCents', 'amount_in_cents')).toBe(2200);
    expect(field(3, 'paymentMethod', 'payment_method')).toBe('credit_card');
    expect(field(5, 'appliedAmount', 'applied_amount')).toBe('5.00');
    expect(field(5, 'prepayment', 'prepayment')).toBe(true);
  });

  it("moves money on a subscription group's account", async () => {
    const primary = await subscribe('group-primary', true);
    const subscriptions = new SubscriptionsController(client);
    const owner = (await subscriptions.readSubscription(primary)).result.subscription?.customer?.id;
    const member = present(
      (
        await subscriptions.createSubscription({
          subscription: {
            productId: catalog.silver,
            customerId: present(owner, 'customer id'),
            paymentCollectionMethod: 'remittance' as never,
          },
        })
      ).result.subscription?.id,
      'member id',
    );
    const groups = new SubscriptionGroupsController(client);
    await groups.createSubscriptionGroup({
      subscriptionGroup: { subscriptionId: primary, memberIds: [member] },
    });
    const uid = present((await groups.findSubscriptionGroup(String(primary))).result.uid, 'group uid');
    const account = new SubscriptionGroupInvoiceAccountController(client);
    const prepaid = (
      await account.createSubscriptionGroupPrepayment(uid, {
        prepayment: { amount: 15, details: 'Cheque 3', memo: 'Group', method: 'check' as never },
      })
    ).result;
    expect(prepaid).toMatchObject({ amountInCents: 1500n, endingBalanceInCents: 1500n });
    const listed = (await account.listPrepaymentsForSubscriptionGroup({ uid })).result.prepayments;
    expect(listed.map((entry) => entry.prepayment.amountInCents)).toEqual([1500n]);
    const credited = (
      await account.issueSubscriptionGroupServiceCredit(uid, {
        serviceCredit: { amount: '6', memo: 'Outage' },
      })
    ).result.serviceCredit;
    expect(credited).toMatchObject({ amountInCents: 600n, endingBalanceInCents: 600n });
    const deducted = (
      await account.deductSubscriptionGroupServiceCredit(uid, { deduction: { amount: '2', memo: 'Fix' } })
    ).result;
    expect(deducted).toMatchObject({ amountInCents: 200n, endingBalanceInCents: 400n });
  });

  it("lists the site's events, every money record in an official shape", async () => {
    const events = new EventsController(client);
    const keys: string[] = [];
    for (let page = 1; ; page += 1) {
      const listed = (await events.listEvents({ page, perPage: 200 })).result;
      keys.push(...listed.map((entry) => entry.event.key));
      if (listed.length < 200) break;
    }
    for (const key of [
      'refund_success',
      'payment_success',
      'subscription_prepayment_account_balance_changed',
      'subscription_service_credit_account_balance_changed',
    ])
      expect(keys).toContain(key);
  });
});
