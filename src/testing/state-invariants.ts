/**
 * Invariants of a whole site beyond single invoices: balances equal the sums of their entries, group
 * membership is a partition, and every subscription state change is one the transition table allows.
 */
import type { Invoice } from '../domain/invoice/types.js';
import type { SubscriptionCommand } from '../domain/subscription/transitions.js';
import { TRANSITIONS } from '../domain/subscription/transitions.js';
import type { SubscriptionState } from '../domain/subscription/types.js';
import type { SiteState } from '../engine/state.js';
import { indexGet, listRange, tableGet, tableRows } from '../kernel/collection.js';
import { cmp, isNegative, sum, toMinor } from '../kernel/money.js';

/**
 * The states each command can lead to (the transition table lists which commands each state allows).
 * Commands that keep the state (delayed cancellation, allocation, advance invoices) lead nowhere new,
 * except that a failed payment on the way moves a subscription into dunning.
 */
export const COMMAND_OUTCOMES: Readonly<Record<SubscriptionCommand, readonly SubscriptionState[]>> = {
  cancel: ['canceled'],
  initiate_delayed_cancel: [],
  cancel_delayed_cancel: [],
  reactivate: ['active', 'trialing', 'past_due'],
  hold: ['on_hold'],
  resume: ['active', 'past_due'],
  migrate: ['active', 'trialing', 'past_due'],
  allocate: ['past_due'],
  issue_advance_invoice: ['past_due'],
  renew: ['active', 'past_due', 'unpaid', 'canceled', 'expired'],
  end_trial: ['active', 'trial_ended', 'past_due', 'canceled'],
  retry_payment: ['active', 'past_due', 'unpaid', 'canceled'],
  expire: ['expired'],
};

/**
 * Whether the transition table allows a subscription to move from one state to another: some command the
 * table allows in `from` can lead to `to`.
 * @example allowedTransition('active', 'on_hold') // true
 */
export function allowedTransition(from: SubscriptionState, to: SubscriptionState): boolean {
  return TRANSITIONS[from].some((command) => COMMAND_OUTCOMES[command].includes(to));
}

interface StateChangeData {
  readonly previous_subscription_state: SubscriptionState;
  readonly new_subscription_state: SubscriptionState;
}

function stateChange(data: unknown): StateChangeData | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const record = data as Readonly<Record<string, unknown>>;
  const from = record['previous_subscription_state'];
  const to = record['new_subscription_state'];
  return typeof from === 'string' && typeof to === 'string' && from in TRANSITIONS && to in TRANSITIONS
    ? {
        previous_subscription_state: from as SubscriptionState,
        new_subscription_state: to as SubscriptionState,
      }
    : undefined;
}

/**
 * Every `subscription_state_change` in the event log is a transition the table allows, each starts where
 * the subscription's previous change ended, and the last ends in the subscription's current state.
 * @example expect(checkTransitions(state)).toEqual([])
 */
export function checkTransitions(state: SiteState): string[] {
  const violations: string[] = [];
  const last = new Map<number, SubscriptionState>();
  for (const event of listRange(state.events)) {
    if (event.key !== 'subscription_state_change' || event.subscription_id === null) continue;
    const change = stateChange(event.event_specific_data);
    if (change === undefined) {
      violations.push(`event ${event.id}: a state change without its states`);
      continue;
    }
    const { previous_subscription_state: from, new_subscription_state: to } = change;
    const id = event.subscription_id;
    const before = last.get(id);
    if (before !== undefined && before !== from)
      violations.push(`subscription ${id}: event ${event.id} starts in ${from}, but it was ${before}`);
    if (!allowedTransition(from, to))
      violations.push(
        `subscription ${id}: ${from} → ${to} (event ${event.id}) is not in the transition table`,
      );
    last.set(id, to);
  }
  for (const [id, ended] of last) {
    const subscription = tableGet(state.tables.subscriptions, id);
    if (subscription !== undefined && subscription.state !== ended)
      violations.push(
        `subscription ${id} is ${subscription.state}, but its last state change ended in ${ended}`,
      );
  }
  return violations;
}

const centsOf = (data: unknown, field: string): number => {
  if (data === null || typeof data !== 'object') return 0;
  const value = (data as Readonly<Record<string, unknown>>)[field];
  return typeof value === 'number' ? value : 0;
};

/**
 * Balances equal the sums of their entries: an invoice's paid and credited amounts are the sums of its
 * payments and credit notes (a consolidated parent invoice's are its children's, so it is skipped); a
 * subscription's prepayment balance is what it prepaid (its balance-change
 * events) less the prepayments its invoices hold; no balance is negative.
 * @example expect(checkBalances(state)).toEqual([])
 */
export function checkBalances(state: SiteState): string[] {
  const violations: string[] = [];
  const currency = state.settings.currency;
  const prepaidCents = new Map<number, number>();
  for (const event of listRange(state.events)) {
    if (event.key !== 'subscription_prepayment_account_balance_changed' || event.subscription_id === null)
      continue;
    const change = centsOf(event.event_specific_data, 'prepayment_balance_change_in_cents');
    prepaidCents.set(event.subscription_id, (prepaidCents.get(event.subscription_id) ?? 0) + change);
  }
  for (const invoice of tableRows(state.tables.invoices)) {
    if (invoice.consolidationLevel !== 'parent') violations.push(...entryViolations(invoice));
    if (isNegative(invoice.totals.due)) violations.push(`invoice ${invoice.uid}: negative amount due`);
    // Prepayments paid on a consolidated parent come off its subscription (the group's primary) too.
    const prepaidUse = invoice.payments
      .filter((payment) => payment.prepayment)
      .reduce((cents, payment) => cents + toMinor(payment.appliedAmount, currency), 0);
    if (prepaidUse > 0)
      prepaidCents.set(invoice.subscriptionId, (prepaidCents.get(invoice.subscriptionId) ?? 0) - prepaidUse);
  }
  for (const subscription of tableRows(state.tables.subscriptions)) {
    const { id, prepaymentBalance, serviceCreditBalance } = subscription;
    if (isNegative(prepaymentBalance)) violations.push(`subscription ${id}: negative prepayment balance`);
    if (isNegative(serviceCreditBalance))
      violations.push(`subscription ${id}: negative service credit balance`);
    const expected = prepaidCents.get(id) ?? 0;
    if (toMinor(prepaymentBalance, currency) !== expected)
      violations.push(
        `subscription ${id}: prepayment balance ${prepaymentBalance}, its entries add up to ${expected} minor units`,
      );
  }
  return violations;
}

/** An invoice's paid and credited totals are the sums of its payments and credit notes. */
function entryViolations(invoice: Invoice): string[] {
  const violations: string[] = [];
  const paid = sum(invoice.payments.map((payment) => payment.appliedAmount));
  if (cmp(paid, invoice.totals.paid) !== 0)
    violations.push(`invoice ${invoice.uid}: paid ${invoice.totals.paid}, payments add up to ${paid}`);
  const credited = sum(invoice.credits.map((credit) => credit.appliedAmount));
  if (cmp(credited, invoice.totals.credit) !== 0)
    violations.push(
      `invoice ${invoice.uid}: credit ${invoice.totals.credit}, credit notes add up to ${credited}`,
    );
  return violations;
}

/**
 * Group membership is a partition: every grouped subscription is in exactly one group, once, with one
 * membership row that the index finds; the primary is the first member; no row names a missing group.
 * @example expect(checkGroups(state)).toEqual([])
 */
export function checkGroups(state: SiteState): string[] {
  const violations: string[] = [];
  const groupOf = new Map<number, number>();
  for (const group of tableRows(state.tables.subscriptionGroups)) {
    if (group.memberIds[0] !== group.primarySubscriptionId)
      violations.push(`group ${group.uid}: the primary is not its first member`);
    for (const member of group.memberIds) {
      const other = groupOf.get(member);
      if (other !== undefined)
        violations.push(`subscription ${member} is in groups ${other} and ${group.id}`);
      groupOf.set(member, group.id);
      if (tableGet(state.tables.subscriptions, member) === undefined)
        violations.push(`group ${group.uid}: member ${member} does not exist`);
    }
  }
  const rows = new Set<number>();
  for (const membership of tableRows(state.tables.groupMemberships)) {
    if (rows.has(membership.subscriptionId))
      violations.push(`subscription ${membership.subscriptionId} has two membership rows`);
    rows.add(membership.subscriptionId);
    if (groupOf.get(membership.subscriptionId) !== membership.groupId)
      violations.push(
        `membership of subscription ${membership.subscriptionId} names group ${membership.groupId}, which does not list it`,
      );
    const indexed = indexGet(state.indexes.groupMembershipSubscriptions, String(membership.subscriptionId));
    if (indexed !== membership.id)
      violations.push(`the membership index does not find subscription ${membership.subscriptionId}`);
  }
  for (const member of groupOf.keys())
    if (!rows.has(member)) violations.push(`grouped subscription ${member} has no membership row`);
  return violations;
}
