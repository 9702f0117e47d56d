/**
 * The books audited against the rows: every transfer is one positive amount from one account
 * to another, so debits equal credits; each subscription's prepayment and service credit balances are
 * its accounts' balances and never negative; each invoice's amount due is its receivable, and what it billed
 * is its total; a subscription's revenue is the money it brought in; every service credit has a source, and
 * what was granted as a refund of service (downgrades, migrations, ...) never exceeds what settled its invoices;
 * refunds, credit notes and refunded prepayments are their transfers.
 */
import type { LedgerAccount, LedgerTransfer } from '../domain/ledger/types.js';
import type { SiteState } from '../engine/state.js';
import { listRange, tableGet, tableRows } from '../kernel/collection.js';
import { add, cmp, type Dec, isNegative, isPositive, isZero, neg, sub } from '../kernel/money.js';

const keyOf = (account: LedgerAccount): string =>
  account.of === null ? account.name : `${account.name}:${account.of}`;

/** Service credit granted for service not delivered: bounded by what the subscription's invoices were settled with. */
const EARNED_SOURCES = new Set(['downgrade', 'migration', 'advance_adjustment', 'group_alignment']);
const ALL_SOURCES = new Set([...EARNED_SOURCES, 'manual']);
/** Transfers that bring money in, by the subscription whose revenue it is. */
const REVENUE_KINDS = new Set([
  'payment',
  'prepayment_received',
  'group_settlement',
  'refund',
  'prepayment_refunded',
]);
/** Transfers that settle an invoice, as seen from its receivable. */
const SETTLING_KINDS = new Set([
  'payment',
  'group_settlement',
  'prepayment_applied',
  'service_credit_applied',
]);

class Sums {
  readonly #values = new Map<string | number, Dec>();
  add(key: string | number, amount: Dec): void {
    this.#values.set(key, add(this.#values.get(key) ?? '0', amount));
  }
  get(key: string | number): Dec {
    return this.#values.get(key) ?? '0';
  }
}

/**
 * Every law of the books, as a list of violations (empty when the books balance).
 * @example expect(checkLedger(state)).toEqual([])
 */
export function checkLedger(state: SiteState): string[] {
  const violations: string[] = [];
  const balances = new Sums();
  const issued = new Sums();
  const revenue = new Sums();
  const earned = new Sums();
  const settled = new Sums();
  const touchedInvoices = new Set<number>();
  const refundedInvoices = new Sums();
  const refundedPrepayments = new Sums();
  let debits: Dec = '0';
  let credits: Dec = '0';
  let expectedId = 1;
  for (const transfer of listRange(state.ledger)) {
    violations.push(...transferViolations(transfer, expectedId));
    expectedId += 1;
    debits = add(debits, transfer.amount);
    credits = add(credits, transfer.amount);
    balances.add(keyOf(transfer.debit), transfer.amount);
    balances.add(keyOf(transfer.credit), neg(transfer.amount));
    if (transfer.invoiceId !== null) touchedInvoices.add(transfer.invoiceId);
    if (transfer.kind === 'refund' && transfer.invoiceId !== null)
      refundedInvoices.add(
        transfer.invoiceId,
        transfer.debit.name === 'receivable' ? transfer.amount : neg(transfer.amount),
      );
    if (transfer.kind === 'prepayment_refunded' && transfer.subscriptionId !== null)
      refundedPrepayments.add(
        transfer.subscriptionId,
        transfer.debit.name === 'prepayments' ? transfer.amount : neg(transfer.amount),
      );
    const subscription = transfer.subscriptionId;
    if (subscription === null) continue;
    if (REVENUE_KINDS.has(transfer.kind)) {
      const received =
        transfer.kind === 'group_settlement'
          ? transfer.credit.of === transfer.invoiceId
          : transfer.debit.name === 'cash';
      revenue.add(subscription, received ? transfer.amount : neg(transfer.amount));
    }
    if (
      (transfer.kind === 'void_payment_moved' ||
        transfer.kind === 'prepayment_applied' ||
        transfer.kind === 'service_credit_applied') &&
      transfer.invoiceId !== null &&
      tableGet(state.tables.invoices, transfer.invoiceId)?.consolidationLevel === 'parent'
    ) {
      // Money on a consolidated invoice is a member's revenue when it pays a child: the primary's prepayment
      // or service credit spent on one leaves the primary's revenue (and comes back if the invoice is
      // voided), and money received on one that is voided stays the primary's.
      const intoParent = transfer.credit.name === 'receivable';
      const sign =
        transfer.kind !== 'void_payment_moved' && intoParent ? neg(transfer.amount) : transfer.amount;
      revenue.add(subscription, sign);
    }
    if (
      transfer.kind === 'service_credit_granted' &&
      transfer.source !== null &&
      EARNED_SOURCES.has(transfer.source)
    )
      earned.add(subscription, transfer.amount);
    if (SETTLING_KINDS.has(transfer.kind)) {
      // Settling moves money into the invoice's receivable; a reversal (a void, a rollback) takes it out.
      const into = transfer.credit.name === 'receivable' && transfer.credit.of === transfer.invoiceId;
      settled.add(subscription, into ? transfer.amount : neg(transfer.amount));
    }
    if (transfer.kind === 'invoice_sales' || transfer.kind === 'invoice_tax') {
      const into = transfer.debit.name === 'receivable' ? transfer.amount : neg(transfer.amount);
      if (transfer.invoiceId !== null) issued.add(transfer.invoiceId, into);
    }
    if (transfer.kind === 'invoice_discount' && transfer.invoiceId !== null) {
      const off = transfer.credit.name === 'receivable' ? transfer.amount : neg(transfer.amount);
      issued.add(transfer.invoiceId, neg(off));
    }
  }
  if (cmp(debits, credits) !== 0) violations.push(`debits ${debits} differ from credits ${credits}`);
  violations.push(...subscriptionViolations(state, balances, revenue, earned, settled));
  violations.push(...invoiceViolations(state, balances, issued, touchedInvoices));
  violations.push(...refundViolations(state, balances, refundedInvoices, refundedPrepayments));
  return violations;
}

/**
 * Refunds and credit notes against the books: an invoice's refunds are its `refund` transfers and its
 * `refund_amount`, and never return more of a payment than it brought; what applied credit notes forgave
 * is the `credit_notes` account; a prepayment's refunded amount is its subscription's `prepayment_refunded`
 * transfers and never more than it brought.
 */
function refundViolations(
  state: SiteState,
  balances: Sums,
  refundedInvoices: Sums,
  refundedPrepayments: Sums,
): string[] {
  const violations: string[] = [];
  for (const invoice of tableRows(state.tables.invoices)) {
    const refunds = invoice.refunds ?? [];
    let total: Dec = '0';
    for (const refund of refunds) total = add(total, refund.amount);
    const name = `invoice ${invoice.uid}`;
    if (cmp(total, refundedInvoices.get(invoice.id)) !== 0)
      violations.push(
        `${name}: refunds add up to ${total}, the books returned ${refundedInvoices.get(invoice.id)}`,
      );
    if (cmp(total, invoice.totals.refund) !== 0)
      violations.push(`${name}: refund amount ${invoice.totals.refund}, its refunds add up to ${total}`);
    for (const payment of invoice.payments) {
      let returned: Dec = '0';
      for (const refund of refunds)
        if (refund.paymentId === payment.transactionId) returned = add(returned, refund.amount);
      if (cmp(returned, payment.appliedAmount) > 0)
        violations.push(
          `${name}: payment ${payment.transactionId} refunded ${returned} of ${payment.appliedAmount}`,
        );
    }
  }
  let forgiven: Dec = '0';
  for (const note of tableRows(state.tables.creditNotes)) {
    let used: Dec = '0';
    for (const application of note.applications) used = add(used, application.amount);
    for (const refund of note.refunds) used = add(used, refund.amount);
    if (!note.reversed && cmp(used, note.total) !== 0)
      violations.push(`credit note ${note.uid}: total ${note.total}, applied and refunded ${used}`);
    if (note.reason !== 'refund' || note.reversed) continue;
    for (const application of note.applications) forgiven = add(forgiven, application.amount);
  }
  if (cmp(forgiven, balances.get('credit_notes')) !== 0)
    violations.push(`credit notes applied ${forgiven}, the books forgave ${balances.get('credit_notes')}`);
  const refundedBySubscription = new Sums();
  for (const prepayment of tableRows(state.tables.prepayments)) {
    refundedBySubscription.add(prepayment.subscriptionId, prepayment.refunded);
    if (cmp(prepayment.refunded, prepayment.amount) > 0)
      violations.push(`prepayment ${prepayment.id}: refunded ${prepayment.refunded} of ${prepayment.amount}`);
  }
  for (const subscription of tableRows(state.tables.subscriptions))
    if (cmp(refundedBySubscription.get(subscription.id), refundedPrepayments.get(subscription.id)) !== 0)
      violations.push(
        `subscription ${subscription.id}: prepayments refunded ${refundedBySubscription.get(subscription.id)}, the books returned ${refundedPrepayments.get(subscription.id)}`,
      );
  return violations;
}

function transferViolations(transfer: LedgerTransfer, expectedId: number): string[] {
  const violations: string[] = [];
  const name = `transfer ${transfer.id}`;
  if (transfer.id !== expectedId) violations.push(`${name}: at position ${expectedId}`);
  if (!isPositive(transfer.amount)) violations.push(`${name}: amount ${transfer.amount} is not positive`);
  if (keyOf(transfer.debit) === keyOf(transfer.credit))
    violations.push(`${name}: debits and credits one account`);
  const credited = transfer.credit.name === 'service_credits';
  if (credited && transfer.kind === 'service_credit_granted' && !ALL_SOURCES.has(transfer.source ?? ''))
    violations.push(`${name}: a service credit without a source`);
  if (credited && transfer.kind !== 'service_credit_granted' && transfer.kind !== 'service_credit_applied')
    violations.push(`${name}: service credit from ${transfer.kind}, which is no source`);
  return violations;
}

function subscriptionViolations(
  state: SiteState,
  balances: Sums,
  revenue: Sums,
  earned: Sums,
  settled: Sums,
): string[] {
  const violations: string[] = [];
  let cashHeld: Dec = '0';
  let revenueTotal: Dec = '0';
  for (const subscription of tableRows(state.tables.subscriptions)) {
    const { id } = subscription;
    const name = `subscription ${id}`;
    const prepayments = neg(balances.get(`prepayments:${id}`));
    const serviceCredits = neg(balances.get(`service_credits:${id}`));
    if (cmp(prepayments, subscription.prepaymentBalance) !== 0)
      violations.push(
        `${name}: prepayment balance ${subscription.prepaymentBalance}, the books hold ${prepayments}`,
      );
    if (cmp(serviceCredits, subscription.serviceCreditBalance) !== 0)
      violations.push(
        `${name}: service credit balance ${subscription.serviceCreditBalance}, the books hold ${serviceCredits}`,
      );
    if (isNegative(prepayments)) violations.push(`${name}: prepayments below zero in the books`);
    if (isNegative(serviceCredits)) violations.push(`${name}: service credit below zero in the books`);
    if (cmp(revenue.get(id), subscription.totalRevenue) !== 0)
      violations.push(
        `${name}: total revenue ${subscription.totalRevenue}, money received ${revenue.get(id)}`,
      );
    if (cmp(earned.get(id), settled.get(id)) > 0)
      violations.push(
        `${name}: ${earned.get(id)} of service credit granted for unused service, but its invoices were settled with ${settled.get(id)}`,
      );
    cashHeld = add(cashHeld, balances.get(`cash:${id}`));
    revenueTotal = add(revenueTotal, subscription.totalRevenue);
  }
  // Money received on consolidated invoices not yet paid over to their children is nobody's revenue yet.
  let heldForChildren: Dec = '0';
  for (const invoice of tableRows(state.tables.invoices))
    if (invoice.consolidationLevel === 'parent')
      heldForChildren = add(heldForChildren, neg(balances.get(`receivable:${invoice.id}`)));
  const received = sub(cashHeld, heldForChildren);
  if (cmp(received, revenueTotal) !== 0)
    violations.push(`revenue of the site ${revenueTotal}, money received ${received}`);
  return violations;
}

function invoiceViolations(
  state: SiteState,
  balances: Sums,
  issued: Sums,
  touched: ReadonlySet<number>,
): string[] {
  const violations: string[] = [];
  for (const invoice of tableRows(state.tables.invoices)) {
    const name = `invoice ${invoice.uid}`;
    const receivable = balances.get(`receivable:${invoice.id}`);
    if (invoice.status === 'draft') {
      if (!isZero(receivable) || !isZero(issued.get(invoice.id)))
        violations.push(`${name}: a draft with ${receivable} receivable in the books`);
      continue;
    }
    if (invoice.consolidationLevel === 'parent') {
      // A parent bills nothing itself; what it received and has not yet paid over to its children it holds.
      let own: Dec = '0';
      for (const payment of invoice.payments) own = add(own, payment.appliedAmount);
      const held = invoice.status === 'paid' || invoice.status === 'voided' ? '0' : neg(own);
      if (cmp(receivable, held) !== 0)
        violations.push(
          `${name}: the books hold ${receivable} for a consolidated invoice that holds ${held}`,
        );
      continue;
    }
    if (cmp(issued.get(invoice.id), invoice.totals.total) !== 0)
      violations.push(`${name}: total ${invoice.totals.total}, the books issued ${issued.get(invoice.id)}`);
    if (cmp(receivable, invoice.totals.due) !== 0)
      violations.push(`${name}: due ${invoice.totals.due}, the books hold ${receivable} receivable`);
  }
  for (const id of touched)
    if (tableGet(state.tables.invoices, id) === undefined && !isZero(balances.get(`receivable:${id}`)))
      violations.push(`invoice ${id} is gone, but the books hold ${balances.get(`receivable:${id}`)} for it`);
  return violations;
}
