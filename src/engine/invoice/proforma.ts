/**
 * Proforma invoices: what a subscription's next renewal will charge — the same lines and coupons as the
 * renewal preview and the renewal itself (`upcomingRenewal`: product, components at their current
 * quantities, usage so far billed in arrears; only the arrears when an advance invoice covers the
 * period) — priced by the shared invoice pricing (`draftLines`, `draftDiscounts`, `priceInvoice`) with
 * the customer's taxes, and stored in its own table. Creating one moves no money, no balance and no
 * invoice. A preview builds the same document in a scratch transaction that is dropped, so it leaves the
 * state exactly as it was.
 */

import type { DomainError } from '../../domain/errors.js';
import { canProforma, type ProformaInvoice } from '../../domain/invoice/proforma.js';
import type { Subscription, SubscriptionState } from '../../domain/subscription/types.js';
import { listFromArray, listRange } from '../../kernel/collection.js';
import { uidOf } from '../../kernel/ids.js';
import { formatMoney } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { calendarDateOf } from '../../kernel/time.js';
import { upcomingRenewal } from '../renewal/upcoming.js';
import { Transaction } from '../transaction.js';
import { priceInvoice } from './build.js';
import { customerAddress, draftDiscounts, draftLines, partyOf, taxRatesFor } from './drafts.js';

/** The states in which a subscription renews, so that a proforma of its next renewal means something. */
const RENEWING_STATES: ReadonlySet<SubscriptionState> = new Set([
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'soft_failure',
]);

const refused = (message: string): DomainError => ({ code: 'proforma_refused', status: 422, message });

/** Why a subscription has no next renewal to describe, or undefined when it has one. */
function refusal(subscription: Subscription): DomainError | undefined {
  if (!RENEWING_STATES.has(subscription.state))
    return refused(`A proforma invoice needs a live subscription; this one is ${subscription.state}.`);
  if (subscription.cancelAtEndOfPeriod)
    return refused('The subscription cancels at the end of its period, so it has no next renewal.');
  if (subscription.expiresAt !== null && subscription.expiresAt <= subscription.currentPeriodEndsAt)
    return refused('The subscription expires before its next renewal.');
  return undefined;
}

/**
 * Builds (without storing) the proforma invoice of a subscription's next renewal, taking its id, number
 * and transaction ids from `tx`. Its lines and coupons are those the renewal will bill (`upcomingRenewal`),
 * read from `tx.state`: call it before `tx` writes anything.
 */
function buildProforma(tx: Transaction, subscription: Subscription): Result<ProformaInvoice, DomainError> {
  const refusedWith = refusal(subscription);
  if (refusedWith !== undefined) return err(refusedWith);
  const customer = tx.get('customers', subscription.customerId);
  // The renewal's charge builders reset the rows they bill, so they run in a scratch transaction.
  const upcoming = upcomingRenewal(new Transaction(tx.state, tx.now), subscription);
  if (customer === undefined || upcoming === undefined)
    return err(refused('The subscription has no customer or price point.'));
  const { period } = upcoming;
  const product = tx.get('products', subscription.productId);
  const family = product === undefined ? undefined : tx.get('productFamilies', product.productFamilyId);
  const id = tx.nextId('proformaInvoices');
  const lines = draftLines(tx, upcoming.charges);
  const discounts = draftDiscounts(tx, upcoming.coupons, lines);
  const address = customerAddress(customer);
  const priced = priceInvoice(tx, lines, discounts, taxRatesFor(tx.settings.taxes, customer, address));
  const defaults = tx.settings.invoiceDefaults;
  return ok({
    id,
    uid: uidOf('pro', id),
    number: id,
    customerId: customer.id,
    subscriptionId: subscription.id,
    status: 'draft',
    role: 'proforma',
    collectionMethod: subscription.paymentCollectionMethod,
    currency: tx.settings.currency,
    deliveryDate: calendarDateOf(period.start, tx.settings.timeZone),
    memo: defaults.memo,
    paymentInstructions: defaults.paymentInstructions,
    productName: product?.name ?? '',
    productFamilyName: family?.name ?? '',
    customer: partyOf(customer),
    billingAddress: address,
    shippingAddress: address,
    lines: listFromArray(priced.lines),
    discounts: priced.discounts,
    taxes: priced.taxes,
    totals: { subtotal: priced.subtotal, discount: priced.discount, tax: priced.tax, total: priced.total },
    periodStartsAt: period.start,
    periodEndsAt: period.end,
    voidReason: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
}

/**
 * Creates and stores the proforma invoice of a subscription's next renewal (status `draft`), recording
 * `proforma_invoice_issued`.
 * @example const created = createProforma(tx, subscription); // created.value.uid === 'pro_0000000000001'
 */
export function createProforma(
  tx: Transaction,
  subscription: Subscription,
): Result<ProformaInvoice, DomainError> {
  const built = buildProforma(tx, subscription);
  if (!built.ok) return built;
  const proforma = tx.put('proformaInvoices', built.value);
  const money = (amount: string) => formatMoney(amount, proforma.currency);
  tx.record({
    key: 'proforma_invoice_issued',
    message: `Proforma invoice ${proforma.number} issued for subscription ${subscription.id}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      uid: proforma.uid,
      number: String(proforma.number),
      role: proforma.role,
      delivery_date: proforma.deliveryDate,
      created_at: proforma.createdAt,
      due_amount: money(proforma.totals.total),
      paid_amount: money('0'),
      tax_amount: money(proforma.totals.tax),
      total_amount: money(proforma.totals.total),
      product_name: proforma.productName,
      line_items: [...listRange(proforma.lines)].map((line) => ({
        uid: line.uid,
        title: line.title,
        description: line.description,
        quantity: Number(line.quantity),
        unit_price: line.unitPrice,
        period_range_start: line.periodRangeStart,
        period_range_end: line.periodRangeEnd,
        amount: money(line.subtotal),
        tax_amount: money(line.tax),
        product_id: line.productId,
        product_price_point_id: line.productPricePointId,
        price_point_id: line.pricePointId,
        component_id: line.componentId,
        custom_item: line.customItem,
      })),
    },
  });
  return ok(proforma);
}

/**
 * The proforma invoice `createProforma` would store now, built in a scratch transaction over the same
 * state and then dropped: `tx` records nothing, so the request leaves the state untouched. The scratch
 * transaction reads `tx.state`, not `tx`'s own writes (call it before writing). The uid, number and line
 * transaction ids are those a create at the same instant would assign.
 * @example const preview = previewProforma(tx, subscription); // tx.changes() stays empty
 */
export function previewProforma(
  tx: Transaction,
  subscription: Subscription,
): Result<ProformaInvoice, DomainError> {
  return buildProforma(new Transaction(tx.state, tx.now), subscription);
}

/**
 * Voids a draft proforma invoice with a reason.
 * @example voidProforma(tx, proforma, 'Sent by mistake') // ok, status 'voided'
 */
export function voidProforma(
  tx: Transaction,
  proforma: ProformaInvoice,
  reason: string,
): Result<ProformaInvoice, DomainError> {
  if (!canProforma(proforma.status, 'void'))
    return err(refused(`Only draft proforma invoices can be voided; this one is ${proforma.status}.`));
  return ok(
    tx.put('proformaInvoices', { ...proforma, status: 'voided', voidReason: reason, updatedAt: tx.now }),
  );
}
