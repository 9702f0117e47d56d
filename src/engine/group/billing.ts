/**
 * Consolidated billing of a subscription group. The members renewing at one instant
 * are billed together: each member's charges become a `pending` child invoice (priced, discounted and
 * taxed for that member, with that member's service credits and prepayments applied), and one `open`
 * parent invoice for the group's responsible payer carries every child's lines and owes the sum of what
 * they owe. The parent is collected with the group's default payment profile (else the primary's);
 * paying it pays the children.
 */

import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { listFromArray, listToArray } from '../../kernel/collection.js';
import { type Dec, isPositive, sum } from '../../kernel/money.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import { applyBalances } from '../invoice/balances.js';
import {
  type ChargeLine,
  type CollectionOutcome,
  collectInvoice,
  createInvoice,
} from '../invoice/collect.js';
import { customerAddress, partyOf } from '../invoice/drafts.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import type { Transaction } from '../transaction.js';
import { settleChildren } from './invoices.js';

/** One member's charges for the period it starts now. */
export interface MemberCharges {
  readonly subscription: Subscription;
  readonly charges: readonly ChargeLine[];
}

/**
 * Renewals, the members' first invoices of a group signup, and the prorated charge of a member aligning
 * its billing date to the group's (group-align.ts).
 */
export type GroupRole = 'renewal' | 'signup' | 'proration';

export interface ConsolidatedBilling {
  readonly parent: Invoice;
  readonly children: readonly Invoice[];
  readonly outcome: CollectionOutcome;
}

const total = (invoices: readonly Invoice[], pick: (invoice: Invoice) => Dec): Dec => sum(invoices.map(pick));

/** A member's charges on a pending child invoice, with its own balances applied. */
function billChild(
  tx: Transaction,
  group: SubscriptionGroup,
  entry: MemberCharges,
  role: GroupRole,
): Invoice {
  const { subscription, charges } = entry;
  const invoice = createInvoice(tx, {
    subscription,
    role,
    status: 'pending',
    lines: charges,
    // A signup takes every coupon the member signed up with; a renewal only the recurring ones.
    coupons: role === 'proration' ? [] : renewalCouponSpecs(tx, subscription, charges, role === 'renewal'),
    periodStartedAt: subscription.currentPeriodStartedAt,
    periodEndsAt: subscription.currentPeriodEndsAt,
  });
  return applyBalances(
    tx,
    tx.put('invoices', { ...invoice, consolidationLevel: 'child', subscriptionGroupId: group.id }),
  );
}

/** The parent: the payer's invoice with every child's lines, discounts and taxes, owing their sum. */
function billParent(
  tx: Transaction,
  group: SubscriptionGroup,
  primary: Subscription,
  children: readonly Invoice[],
  role: GroupRole,
): Invoice {
  const payer = tx.get('customers', group.customerId);
  const shell = createInvoice(tx, { subscription: primary, role, status: 'open', lines: [] });
  const payerParty = payer === undefined ? shell.customer : partyOf(payer);
  const payerAddress = payer === undefined ? shell.billingAddress : customerAddress(payer);
  return tx.put('invoices', {
    ...shell,
    customerId: payerParty.id,
    customer: payerParty,
    payer: payerParty,
    billingAddress: payerAddress,
    shippingAddress: payerAddress,
    consolidationLevel: 'parent',
    subscriptionGroupId: group.id,
    lines: listFromArray(children.flatMap((child) => listToArray(child.lines))),
    discounts: children.flatMap((child) => child.discounts),
    taxes: children.flatMap((child) => child.taxes),
    totals: {
      subtotal: total(children, (child) => child.totals.subtotal),
      discount: total(children, (child) => child.totals.discount),
      tax: total(children, (child) => child.totals.tax),
      total: total(children, (child) => child.totals.total),
      credit: total(children, (child) => child.totals.credit),
      debit: '0',
      refund: '0',
      paid: total(children, (child) => child.totals.paid),
      due: total(children, (child) => child.totals.due),
    },
    periodStartedAt: null,
    periodEndsAt: null,
  });
}

/**
 * Bills members' periods as one consolidated invoice and collects it. The primary (when it still
 * exists) names the parent's subscription, collection method and net terms.
 */
export function billConsolidated(
  tx: Transaction,
  group: SubscriptionGroup,
  entries: readonly MemberCharges[],
  gateway: PaymentGateway,
  role: GroupRole = 'renewal',
): ConsolidatedBilling {
  const first = entries[0];
  if (first === undefined) throw new Error('a consolidated billing has members');
  const primary = tx.get('subscriptions', group.primarySubscriptionId) ?? first.subscription;
  const billed = entries.map((entry) => billChild(tx, group, entry, role));
  const parent = billParent(tx, group, primary, billed, role);
  const payer = parent.payer;
  const children = billed.map((child) =>
    tx.put('invoices', { ...child, parentInvoiceId: parent.id, payer, updatedAt: tx.now }),
  );
  const known = children.map((child) => child.id);
  // The parent is the invoice issued to the payer; its children stay pending behind it.
  recordInvoiceIssued(tx, parent);
  const outcome: CollectionOutcome = isPositive(parent.totals.due)
    ? collectInvoice(tx, parent.id, gateway)
    : { kind: 'nothing-due' };
  const collected = tx.get('invoices', parent.id) ?? parent;
  if (outcome.kind === 'nothing-due' && collected.status !== 'paid')
    tx.put('invoices', { ...collected, status: 'paid', paidDate: collected.issueDate, updatedAt: tx.now });
  if (outcome.kind === 'paid' || outcome.kind === 'nothing-due')
    settleChildren(tx, tx.get('invoices', parent.id) ?? collected, known);
  return {
    parent: tx.get('invoices', parent.id) ?? collected,
    children: known.flatMap((id) => tx.get('invoices', id) ?? []),
    outcome,
  };
}
