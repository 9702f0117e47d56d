/**
 * Allocating components: a planned call is committed. Immediate charges go on one `proration`
 * invoice that consumes the subscription's service credits and prepayments and is collected at once; a
 * failed (or impossible) collection voids that invoice and accrues its charges to the next renewal, as
 * accrued charges do from the start. Credits become service credit. The preview plans the same call and
 * prices its charges the same way in a scratch transaction that is dropped.
 */

import type { AccruedCharge, Allocation, AllocationPayment } from '../../domain/allocation/types.js';
import type { DomainError } from '../../domain/errors.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { assertNever } from '../../kernel/invariant.js';
import { add, type Dec, isPositive, toMinor } from '../../kernel/money.js';
import { ok, type Result } from '../../kernel/result.js';
import { formatTimestamp } from '../../kernel/time.js';
import { applyBalances, settleIfPaid } from '../invoice/balances.js';
import { createInvoice } from '../invoice/build.js';
import { collectInvoice } from '../invoice/collect.js';
import type { ChargeLine } from '../invoice/drafts.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import { voidInvoice } from '../invoice/void.js';
import { postServiceCreditGranted } from '../ledger/transfers.js';
import { Transaction } from '../transaction.js';
import type { AllocationCall } from './call.js';
import { type AllocationPlan, type PlannedAllocation, planAllocations } from './plan.js';
import { saveRow, wireQuantity } from './rows.js';

export interface AllocationOutcome {
  readonly plan: AllocationPlan;
  readonly allocations: readonly Allocation[];
  /** The proration invoice of the immediate charges, if any (voided when its payment failed). */
  readonly invoice: Invoice | null;
}

export interface AllocationPreview {
  readonly plan: AllocationPlan;
  /** Every charge of the call priced as one invoice (with the site's current taxes), or null. */
  readonly invoice: Invoice | null;
}

/** The invoice of an allocation call's charges: the one pricing that the preview and the commit share. */
function chargeInvoice(tx: Transaction, subscription: Subscription, lines: readonly ChargeLine[]): Invoice {
  return createInvoice(tx, {
    subscription,
    role: 'proration',
    status: 'open',
    lines,
    periodStartedAt: subscription.currentPeriodStartedAt,
    periodEndsAt: subscription.currentPeriodEndsAt,
  });
}

/**
 * What a call would do, computed on a scratch transaction over the same state and dropped: `tx` records
 * nothing, and no payment is attempted.
 * @example const preview = previewAllocations(tx, subscription, { changes }); // tx.changes() stays empty
 */
export function previewAllocations(
  tx: Transaction,
  subscription: Subscription,
  call: AllocationCall,
): Result<AllocationPreview, DomainError> {
  const scratch = new Transaction(tx.state, tx.now);
  const plan = planAllocations(scratch, subscription, call);
  if (!plan.ok) return plan;
  const lines = plan.value.items.flatMap((item) => (item.charge === null ? [] : [item.charge]));
  return ok({
    plan: plan.value,
    invoice: lines.length === 0 ? null : chargeInvoice(scratch, subscription, lines),
  });
}

/**
 * Commits a call: rows, allocation records, events, credit, the immediate invoice and its payment.
 * @example const outcome = allocate(tx, subscription, { changes: [{ component, quantity: '8' }] }, gateway);
 */
export function allocate(
  tx: Transaction,
  subscription: Subscription,
  call: AllocationCall,
  gateway: PaymentGateway,
): Result<AllocationOutcome, DomainError> {
  const planned = planAllocations(tx, subscription, call);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const ids = plan.items.map(() => tx.nextId('allocations'));
  // The credit is granted first so the call's own charges can use it; its record follows the allocation
  // records, in the order the event log documents (docs/events.md).
  const credited = isPositive(plan.credit) ? addServiceCredit(tx, subscription.id, plan.credit) : null;
  const immediate = plan.items.flatMap((item) => (item.charge !== null && !item.accrueCharge ? [item] : []));
  const collected =
    immediate.length === 0
      ? { invoice: null, payment: null, accrue: false }
      : chargeNow(tx, subscription.id, immediate, gateway);
  const allocations = plan.items.map((item, index) => {
    const id = ids[index] ?? 0;
    const accrues = item.charge !== null && (item.accrueCharge || collected.accrue);
    const row = saveRow(tx, {
      ...item.after,
      accruedCharges: accrues
        ? [...item.after.accruedCharges, accruedOf(item, id)]
        : item.after.accruedCharges,
      latestAllocationId: id,
    });
    const charged = item.charge !== null && !item.accrueCharge;
    const allocation = tx.put('allocations', {
      id,
      subscriptionId: subscription.id,
      componentId: item.component.id,
      subscriptionComponentId: row.id,
      previousAllocationId: item.before.latestAllocationId,
      quantity: item.after.quantity,
      previousQuantity: item.before.quantity,
      pricePointId: item.after.pricePointId,
      previousPricePointId: item.before.pricePointId,
      customPrice: item.after.customPrice !== null,
      memo: item.memo,
      prorationUpgradeScheme: item.prorationUpgradeScheme,
      prorationDowngradeScheme: item.prorationDowngradeScheme,
      accrueCharge: item.accrueCharge,
      upgradeCharge: item.upgradeCharge,
      downgradeCredit: item.downgradeCredit,
      initiateDunning: item.initiateDunning,
      direction: plan.direction,
      amount: item.amount,
      invoiceId: charged ? (collected.invoice?.id ?? null) : null,
      payment: charged ? collected.payment : null,
      createdAt: tx.now,
    });
    recordAllocation(tx, subscription, allocation, item);
    return allocation;
  });
  if (credited !== null) recordDowngradeCredit(tx, subscription, credited);
  return ok({ plan, allocations, invoice: collected.invoice });
}

/** The accrued form of an allocation's charge. */
function accruedOf(item: PlannedAllocation, allocationId: number): AccruedCharge {
  const charge = item.charge;
  return {
    allocationId,
    title: charge?.title ?? item.component.name,
    description: charge?.description ?? '',
    amount: item.amount,
    ...(charge === null
      ? {}
      : {
          quantity: charge.quantity,
          unitPrice: charge.unitPrice,
          tieredUnitPrice: charge.tieredUnitPrice ?? false,
        }),
    kind: item.component.kind,
    pricePointId: item.after.pricePointId,
    periodRangeStart: charge?.periodRangeStart ?? '',
    periodRangeEnd: charge?.periodRangeEnd ?? '',
  };
}

/**
 * Invoices the immediate charges and collects them. A failed payment, or no payment profile, voids the
 * invoice and accrues the charges instead; a remittance invoice stays open to be paid by the customer.
 */
function chargeNow(
  tx: Transaction,
  subscriptionId: number,
  items: readonly PlannedAllocation[],
  gateway: PaymentGateway,
): { invoice: Invoice; payment: AllocationPayment | null; accrue: boolean } {
  const subscription = tx.get('subscriptions', subscriptionId);
  if (subscription === undefined) throw new Error('allocated subscription exists');
  const lines = items.flatMap((item) => (item.charge === null ? [] : [item.charge]));
  const applied = settleIfPaid(tx, applyBalances(tx, chargeInvoice(tx, subscription, lines)));
  recordInvoiceIssued(tx, applied);
  if (applied.status === 'paid') return { invoice: applied, payment: null, accrue: false };
  const outcome = collectInvoice(tx, applied.id, gateway);
  const invoice = tx.get('invoices', applied.id) ?? applied;
  switch (outcome.kind) {
    case 'paid':
      return {
        invoice,
        payment: {
          transactionId: outcome.transactionId,
          amount: outcome.amount,
          success: true,
          memo: paymentMemo(invoice),
        },
        accrue: false,
      };
    case 'nothing-due':
      return { invoice, payment: null, accrue: false };
    case 'not-collected':
      if (outcome.reason === 'remittance') return { invoice, payment: null, accrue: false };
      return { invoice: accrueInstead(tx, invoice, 'No payment profile'), payment: null, accrue: true };
    case 'failed':
      return {
        invoice: accrueInstead(tx, invoice, outcome.message),
        payment: {
          transactionId: failedTransactionId(tx),
          amount: outcome.amount,
          success: false,
          memo: outcome.message,
        },
        accrue: true,
      };
    default:
      return assertNever(outcome);
  }
}

const paymentMemo = (invoice: Invoice) => `Payment for invoice ${invoice.number}`;

/** The transaction id `collectInvoice` gave the failure it just recorded. */
function failedTransactionId(tx: Transaction): number | null {
  const events = tx.events();
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.key !== 'payment_failure') continue;
    const id = event.event_specific_data?.['account_transaction_id'];
    return typeof id === 'number' ? id : null;
  }
  return null;
}

function accrueInstead(tx: Transaction, invoice: Invoice, reason: string): Invoice {
  const voided = voidInvoice(
    tx,
    invoice,
    `Payment not collected (${reason}); the charges accrue to the next renewal.`,
  );
  return voided.ok ? voided.value : invoice;
}

interface GrantedCredit {
  readonly amount: Dec;
  /** The service credit balance just after the grant. */
  readonly balance: Dec;
}

/** Adds a downgrade credit to the subscription's service credit; `recordDowngradeCredit` logs it. */
function addServiceCredit(tx: Transaction, subscriptionId: number, amount: Dec): GrantedCredit | null {
  const subscription = tx.get('subscriptions', subscriptionId);
  if (subscription === undefined) return null;
  const balance = add(subscription.serviceCreditBalance, amount);
  tx.put('subscriptions', { ...subscription, serviceCreditBalance: balance, updatedAt: tx.now });
  postServiceCreditGranted(tx, subscriptionId, amount, 'downgrade');
  return { amount, balance };
}

function recordDowngradeCredit(tx: Transaction, subscription: Subscription, credit: GrantedCredit): void {
  const { amount, balance } = credit;
  const currency = tx.settings.currency;
  tx.record({
    key: 'subscription_service_credit_account_balance_changed',
    message: `Service credit of ${amount} added for an allocation downgrade`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      reason: 'Allocation downgrade credit',
      service_credit_account_balance_in_cents: toMinor(balance, currency),
      service_credit_balance_change_in_cents: toMinor(amount, currency),
      currency_code: currency,
      at_time: formatTimestamp(tx.now, tx.settings.timeZone),
    },
  });
}

function recordAllocation(
  tx: Transaction,
  subscription: Subscription,
  allocation: Allocation,
  item: PlannedAllocation,
): void {
  const { component } = item;
  tx.record({
    key: 'component_allocation_change',
    message: `Allocation of ${component.name} changed from ${allocation.previousQuantity} to ${allocation.quantity} on subscription ${subscription.id}${allocationPaymentNote(tx, allocation)}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      allocation_id: allocation.id,
      component_id: component.id,
      // The official ComponentAllocationChange requires both as strings: absent ones are empty.
      component_handle: component.handle ?? '',
      memo: allocation.memo ?? '',
      new_allocation: Number(allocation.quantity),
      previous_allocation: Number(allocation.previousQuantity),
      allocated_quantity: wireQuantity(allocation.quantity),
      timestamp: formatTimestamp(tx.now, tx.settings.timeZone),
      price_point_id: allocation.pricePointId,
      previous_price_point_id: allocation.previousPricePointId,
      accrue_charge: allocation.accrueCharge,
      upgrade_charge: allocation.upgradeCharge,
      downgrade_credit: allocation.downgradeCredit,
    },
  });
}

/** Under the new catalog experience an allocation message tells its payment outcome. */
function allocationPaymentNote(tx: Transaction, allocation: Allocation): string {
  if (!tx.settings.newCatalogExperience || allocation.payment === null) return '';
  return allocation.payment.success ? ': successful payment' : ': failed payment';
}
