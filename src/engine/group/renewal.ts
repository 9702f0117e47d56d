/**
 * Renewals of subscription group members (README "Group billing"): the members whose renewals fall due
 * at the same instant renew in one step and are billed on one consolidated invoice; a failed collection
 * puts that invoice in the primary's dunning.
 */

import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { dueAction } from '../../domain/subscription/due-action.js';
import { dueAt } from '../../domain/subscription/schedule.js';
import { startDunning } from '../renewal/dunning.js';
import { openNextPeriod } from '../renewal/next-period.js';
import { recordRenewalOutcome, renewalFailed } from '../renewal/outcome.js';
import type { Transaction } from '../transaction.js';
import { billConsolidated, type MemberCharges } from './billing.js';

/**
 * A member's renewal (its period already opened) takes along every other member of its group whose
 * renewal falls due at this very instant; members due at other instants renew at theirs.
 */
export function renewWithGroup(
  tx: Transaction,
  group: SubscriptionGroup,
  opened: MemberCharges,
  gateway: PaymentGateway,
): void {
  const entries = [opened];
  for (const id of group.memberIds) {
    const member = id === opened.subscription.id ? undefined : tx.get('subscriptions', id);
    if (member === undefined || dueAt(member) !== tx.now || dueAction(member, tx.now) !== 'renew') continue;
    const other = openNextPeriod(tx, member, gateway);
    if (other !== undefined) entries.push(other);
  }
  billGroupMembers(tx, group, entries, gateway);
}

/**
 * Members renewing together are billed on one consolidated invoice. Each records its renewal outcome;
 * a failed collection puts the parent invoice in the primary's dunning (the first renewing member's
 * when the primary has nothing scheduled any more), so the group's retries and final action follow
 * the primary while the other members stay as they are.
 */
export function billGroupMembers(
  tx: Transaction,
  group: SubscriptionGroup,
  entries: readonly MemberCharges[],
  gateway: PaymentGateway,
): void {
  const { parent, outcome } = billConsolidated(tx, group, entries, gateway);
  for (const entry of entries) {
    const current = tx.get('subscriptions', entry.subscription.id) ?? entry.subscription;
    recordRenewalOutcome(tx, current, parent.id, outcome, false);
  }
  if (!renewalFailed(outcome)) return;
  const primary = tx.get('subscriptions', group.primarySubscriptionId);
  const carrier = primary !== undefined && dueAt(primary) !== null ? primary : entries[0]?.subscription;
  if (carrier !== undefined) startDunning(tx, tx.get('subscriptions', carrier.id) ?? carrier, parent.id);
}
