/**
 * A subscription group's status on request: cancel every member now, cancel them all at the end of
 * their periods (and take that back), reactivate the canceled ones. Each member goes through the same
 * code as a single subscription, so its invoices and the books move exactly as they would alone.
 */

import { type DomainError, invalid } from '../../domain/errors.js';
import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { can } from '../../domain/subscription/transitions.js';
import { NO_CANCELLATION_REASON, type Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { reactivate } from '../subscription/reactivation.js';
import { cancelDelayedCancel, cancelNow, initiateDelayedCancel } from '../subscription/status.js';
import type { Transaction } from '../transaction.js';

const refused = (message: string): DomainError => invalid('invalid_group_transition', message, 'base');

/** The group's members as this transaction has them, the primary first. */
const membersOf = (tx: Transaction, group: SubscriptionGroup): Subscription[] =>
  group.memberIds.flatMap((id) => tx.get('subscriptions', id) ?? []);

/** Why the group cannot be canceled: its members must be collected automatically. */
function automaticProblem(members: readonly Subscription[]): DomainError | undefined {
  const remittance = members.find((member) => member.paymentCollectionMethod !== 'automatic');
  return remittance === undefined
    ? undefined
    : refused(
        `Subscription ${remittance.id} is not on automatic billing: a group is canceled only when all are.`,
      );
}

/** Cancels every live member now. */
export function cancelGroup(tx: Transaction, group: SubscriptionGroup): Result<void, DomainError> {
  const members = membersOf(tx, group);
  const problem = automaticProblem(members);
  if (problem !== undefined) return err(problem);
  const live = members.filter((member) => can(member.state, 'cancel') && member.state !== 'canceled');
  if (live.length === 0) return err(refused('The group has no subscription left to cancel.'));
  for (const member of live) cancelNow(tx, member, 'merchant_api', NO_CANCELLATION_REASON);
  return ok(undefined);
}

/** Cancels every member at the end of its own current period; none when one of them cannot be. */
export function delayGroupCancel(tx: Transaction, group: SubscriptionGroup): Result<void, DomainError> {
  const members = membersOf(tx, group);
  const problem = automaticProblem(members);
  if (problem !== undefined) return err(problem);
  const stuck = members.find((member) => !can(member.state, 'initiate_delayed_cancel'));
  if (stuck !== undefined)
    return err(
      refused(`Subscription ${stuck.id} is ${stuck.state} and cannot be canceled at the end of its period.`),
    );
  for (const member of members) {
    const flagged = initiateDelayedCancel(tx, member, NO_CANCELLATION_REASON);
    if (!flagged.ok) return flagged;
  }
  return ok(undefined);
}

/** Takes back a group's delayed cancellation on every member that has one. */
export function removeGroupDelayedCancel(
  tx: Transaction,
  group: SubscriptionGroup,
): Result<void, DomainError> {
  const members = membersOf(tx, group);
  const pending = members.filter((member) => member.cancelAtEndOfPeriod);
  if (pending.length === 0) return err(refused('The group has no pending cancellation.'));
  for (const member of pending) cancelDelayedCancel(tx, member);
  return ok(undefined);
}

/** How a group is reactivated: `resume` keeps the primary's current period when it can. */
export interface GroupReactivation {
  readonly resume: boolean;
  /** Members keep their current period when they can, even if the primary starts a new one. */
  readonly resumeMembers: boolean;
}

/**
 * Reactivates the canceled members, the primary first. A primary that cannot be reactivated refuses the
 * whole request; a member whose payment then fails stays canceled while the others are kept, since their
 * payments went through.
 */
export function reactivateGroup(
  tx: Transaction,
  group: SubscriptionGroup,
  options: GroupReactivation,
  gateway: PaymentGateway,
  actionLink: (subscription: Subscription) => string,
): Result<readonly number[], DomainError> {
  const canceled = membersOf(tx, group).filter((member) => can(member.state, 'reactivate'));
  if (canceled.length === 0) return err(refused('The group has no canceled subscription to reactivate.'));
  const reactivated: number[] = [];
  for (const member of canceled) {
    const isPrimary = member.id === group.primarySubscriptionId;
    const done = reactivate(
      tx,
      member,
      {
        includeTrial: false,
        resume: isPrimary ? options.resume : options.resume || options.resumeMembers,
        requireResume: false,
        couponCode: null,
      },
      gateway,
      actionLink,
    );
    if (!done.ok) {
      if (reactivated.length === 0) return done;
      break;
    }
    reactivated.push(member.id);
  }
  return ok(reactivated);
}
