/**
 * Turning charges into invoices and collecting them: the shared path of signups, renewals and (later)
 * allocations, migrations and ad hoc invoices.
 */

import type { Customer } from '../../domain/customer/types.js';
import type {
  Invoice,
  InvoiceAddress,
  InvoiceLine,
  InvoiceParty,
  InvoiceRole,
  InvoiceStatus,
} from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { SiteTaxRate } from '../../domain/site/config.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { listFromArray, listToArray } from '../../kernel/collection.js';
import { uidOf } from '../../kernel/ids.js';
import { add, type Dec, isPositive, min, sub, toMinor } from '../../kernel/money.js';
import { addDays, type CalendarDate, calendarDateOf } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';
import { computeInvoiceAmounts } from './invoice-math.js';

/** A charge to put on an invoice. */
export interface ChargeLine {
  readonly title: string;
  readonly description?: string;
  readonly quantity: Dec;
  readonly unitPrice: Dec;
  readonly amount?: Dec;
  readonly taxable: boolean;
  readonly kind: string;
  readonly productId?: number;
  readonly productVersion?: number;
  readonly productPricePointId?: number;
  readonly componentId?: number;
  readonly pricePointId?: number;
  readonly customItem?: boolean;
  readonly tieredUnitPrice?: boolean;
  readonly periodRangeStart?: CalendarDate | null;
  readonly periodRangeEnd?: CalendarDate | null;
  readonly taxCode?: string | null;
}

export interface InvoiceSpec {
  readonly subscription: Subscription;
  readonly role: InvoiceRole;
  readonly status: InvoiceStatus;
  readonly lines: readonly ChargeLine[];
  readonly issueDate?: CalendarDate;
  readonly netTerms?: number;
  readonly memo?: string;
  readonly paymentInstructions?: string;
  readonly sellerAddress?: InvoiceAddress | null;
  readonly billingAddress?: InvoiceAddress | null;
  readonly shippingAddress?: InvoiceAddress | null;
  readonly periodStartedAt?: string | null;
  readonly periodEndsAt?: string | null;
}

/** The site's tax rates that apply to a customer (none when exempt or the site calculates no taxes). */
export function taxRatesFor(rates: readonly SiteTaxRate[] | null, customer: Customer): SiteTaxRate[] {
  if (rates === null || customer.taxExempt) return [];
  return rates.filter(
    (rate) =>
      (rate.country === undefined || rate.country.toUpperCase() === (customer.country ?? '').toUpperCase()) &&
      (rate.state === undefined || rate.state.toUpperCase() === (customer.state ?? '').toUpperCase()),
  );
}

/** An invoice's view of a customer. */
export function partyOf(customer: Customer): InvoiceParty {
  return {
    id: customer.id,
    firstName: customer.firstName,
    lastName: customer.lastName,
    organization: customer.organization,
    email: customer.email,
    vatNumber: customer.vatNumber,
    reference: customer.reference,
  };
}

/** The customer's address as an invoice address. */
export function customerAddress(customer: Customer): InvoiceAddress {
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    phone: customer.phone,
    street: customer.address,
    line2: customer.address2,
    city: customer.city,
    state: customer.state,
    zip: customer.zip,
    country: customer.country,
  };
}

/** Computes the lines and totals of an invoice from its charges. */
export function priceInvoice(
  tx: Transaction,
  customer: Customer,
  charges: readonly ChargeLine[],
  lineUids: readonly string[],
) {
  const currency = tx.settings.currency;
  const rates = taxRatesFor(tx.settings.taxes, customer);
  return computeInvoiceAmounts(
    currency,
    charges.map((charge, index) => ({
      uid: lineUids[index] ?? '',
      quantity: charge.quantity,
      unitPrice: charge.unitPrice,
      taxable: charge.taxable && tx.settings.taxes !== null,
      ...(charge.amount === undefined ? {} : { amount: charge.amount }),
    })),
    rates,
  );
}

/** Creates an invoice record for a subscription's charges. */
export function createInvoice(tx: Transaction, spec: InvoiceSpec): Invoice {
  const customer = tx.get('customers', spec.subscription.customerId);
  if (customer === undefined) throw new Error('subscription without customer');
  const product = tx.get('products', spec.subscription.productId);
  const family = product ? tx.get('productFamilies', product.productFamilyId) : undefined;
  const id = tx.nextId('invoices');
  const uid = uidOf('inv', id);
  const lineUids = spec.lines.map(() => uidOf('li', tx.next('transactions')));
  const amounts = priceInvoice(tx, customer, spec.lines, lineUids);
  const lines: InvoiceLine[] = spec.lines.map((charge, index) => {
    const computed = amounts.lines[index] ?? { subtotal: '0', discount: '0', tax: '0', total: '0' };
    const lineUid = lineUids[index] ?? '';
    return {
      uid: lineUid,
      title: charge.title,
      description: charge.description ?? '',
      quantity: charge.quantity,
      unitPrice: charge.unitPrice,
      ...computed,
      taxable: charge.taxable,
      tieredUnitPrice: charge.tieredUnitPrice ?? false,
      periodRangeStart: charge.periodRangeStart ?? null,
      periodRangeEnd: charge.periodRangeEnd ?? null,
      productId: charge.productId ?? null,
      productVersion: charge.productVersion ?? null,
      productPricePointId: charge.productPricePointId ?? null,
      componentId: charge.componentId ?? null,
      pricePointId: charge.pricePointId ?? null,
      customItem: charge.customItem ?? false,
      kind: charge.kind,
      taxCode: charge.taxCode ?? null,
      transactionId: Number.parseInt(lineUid.slice(3), 36),
    };
  });
  const defaults = tx.settings.invoiceDefaults;
  const issueDate = spec.issueDate ?? calendarDateOf(tx.now, tx.settings.timeZone);
  const netTerms = spec.netTerms ?? spec.subscription.netTerms ?? defaults.netTerms;
  const sequenceNumber = tx.next('invoiceNumbers');
  const invoice: Invoice = {
    id,
    uid,
    number: String(sequenceNumber),
    sequenceNumber,
    customerId: customer.id,
    subscriptionId: spec.subscription.id,
    status: spec.status,
    role: spec.role,
    collectionMethod: spec.subscription.paymentCollectionMethod,
    currency: tx.settings.currency,
    issueDate,
    dueDate: addDays(issueDate, netTerms),
    paidDate: null,
    netTerms,
    memo: spec.memo ?? defaults.memo,
    paymentInstructions: spec.paymentInstructions ?? defaults.paymentInstructions,
    productName: product?.name ?? '',
    productFamilyName: family?.name ?? '',
    consolidationLevel: 'none',
    parentInvoiceId: null,
    subscriptionGroupId: null,
    customer: partyOf(customer),
    payer: partyOf(customer),
    sellerAddress: spec.sellerAddress ?? null,
    billingAddress: spec.billingAddress ?? customerAddress(customer),
    shippingAddress: spec.shippingAddress ?? customerAddress(customer),
    lines: listFromArray(lines),
    discounts: [],
    taxes: amounts.taxes.map((tax, index) => ({
      uid: uidOf('tax', tx.next('transactions')),
      title: tax.name,
      sourceId: index + 1,
      percentage: tax.percentage,
      taxableAmount: tax.taxableAmount,
      taxAmount: tax.taxAmount,
      transactionId: tx.next('transactions'),
      breakouts: tax.breakouts.map((breakout) => ({ ...breakout, taxExemptAmount: '0' })),
    })),
    payments: [],
    credits: [],
    history: [],
    totals: {
      subtotal: amounts.subtotal,
      discount: amounts.discount,
      tax: amounts.tax,
      total: amounts.total,
      credit: '0',
      debit: '0',
      refund: '0',
      paid: '0',
      due: amounts.total,
    },
    periodStartedAt: spec.periodStartedAt ?? null,
    periodEndsAt: spec.periodEndsAt ?? null,
    transactionTime: tx.now,
    createdAt: tx.now,
    updatedAt: tx.now,
  };
  return tx.put('invoices', invoice);
}

export type CollectionOutcome =
  | { readonly kind: 'nothing-due' }
  | { readonly kind: 'not-collected'; readonly reason: 'remittance' | 'no-payment-profile' }
  | { readonly kind: 'paid'; readonly amount: Dec; readonly transactionId: number }
  | {
      readonly kind: 'failed';
      readonly amount: Dec;
      readonly message: string;
      readonly requiresAction: boolean;
    };

/**
 * Attempts to collect what an invoice still owes with the subscription's payment profile. Success pays
 * the invoice; failure leaves it open and records the failure in its history. Subscription revenue and
 * balance follow.
 */
export function collectInvoice(
  tx: Transaction,
  invoiceId: number,
  gateway: PaymentGateway,
): CollectionOutcome {
  const invoice = tx.get('invoices', invoiceId);
  if (invoice === undefined) throw new Error('invoice to collect exists');
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  if (subscription === undefined) throw new Error('invoice subscription exists');
  const due = invoice.totals.due;
  if (!isPositive(due)) {
    if (invoice.status !== 'paid') settle(tx, invoice);
    return { kind: 'nothing-due' };
  }
  if (subscription.paymentCollectionMethod === 'remittance')
    return { kind: 'not-collected', reason: 'remittance' };
  const profile =
    subscription.paymentProfileId === null
      ? undefined
      : tx.get('paymentProfiles', subscription.paymentProfileId);
  if (profile === undefined) return { kind: 'not-collected', reason: 'no-payment-profile' };
  const outcome = gateway({
    kind: 'payment',
    amount: due,
    currency: invoice.currency,
    paymentProfile: profile,
    customerId: invoice.customerId,
    subscriptionId: subscription.id,
    memo: `Payment for invoice ${invoice.number}`,
    at: tx.now,
  });
  const transactionId = tx.next('transactions');
  if (!outcome.success) {
    tx.put('invoices', {
      ...invoice,
      history: [...invoice.history, { at: tx.now, kind: 'payment_failed', detail: outcome.message }],
      updatedAt: tx.now,
    });
    tx.record({
      key: 'payment_failure',
      message: `Payment of ${due} failed for invoice ${invoice.number}: ${outcome.message}`,
      subscriptionId: subscription.id,
      customerId: invoice.customerId,
      data: { product_id: subscription.productId, account_transaction_id: transactionId },
    });
    return {
      kind: 'failed',
      amount: due,
      message: outcome.message,
      requiresAction: outcome.requiresAction === true,
    };
  }
  const paid: Invoice = {
    ...invoice,
    payments: [
      ...invoice.payments,
      {
        uid: uidOf('pmt', transactionId),
        transactionId,
        transactionTime: tx.now,
        memo: `Payment for invoice ${invoice.number}`,
        originalAmount: due,
        appliedAmount: due,
        prepayment: false,
        method: profile.paymentType === 'bank_account' ? 'bank_account' : 'credit_card',
        lastFour: profile.lastFour,
        cardType: profile.cardType,
        gatewayTransactionId: outcome.gatewayTransactionId ?? null,
        receivedOn: calendarDateOf(tx.now, tx.settings.timeZone),
      },
    ],
    totals: { ...invoice.totals, paid: add(invoice.totals.paid, due), due: '0' },
    updatedAt: tx.now,
  };
  settle(tx, paid);
  tx.put('subscriptions', {
    ...(tx.get('subscriptions', subscription.id) ?? subscription),
    totalRevenue: add(subscription.totalRevenue, due),
    balance: sub(subscription.balance, min(due, subscription.balance)),
    updatedAt: tx.now,
  });
  tx.record({
    key: 'payment_success',
    message: `Successful payment of ${due} for invoice ${invoice.number}`,
    subscriptionId: subscription.id,
    customerId: invoice.customerId,
    data: { product_id: subscription.productId, account_transaction_id: transactionId },
  });
  return { kind: 'paid', amount: due, transactionId };
}

function settle(tx: Transaction, invoice: Invoice): void {
  tx.put('invoices', {
    ...invoice,
    status: 'paid',
    paidDate: calendarDateOf(tx.now, tx.settings.timeZone),
    updatedAt: tx.now,
  });
}

/** Cents of an amount in the site currency, for `*_in_cents` fields. */
export const centsOf = (tx: Transaction, amount: Dec): number => toMinor(amount, tx.settings.currency);

/** The lines of an invoice as an array. */
export const invoiceLines = (invoice: Invoice): InvoiceLine[] => listToArray(invoice.lines);
