/**
 * Subscription group operations. A group's `memberIds` and its `groupMemberships` rows
 * always change together here, so the membership index and the member lists describe one partition:
 * every subscription is in at most one group, and a group's primary is always its first member.
 */

import type { DomainError } from '../../domain/errors.js';
import { invalid } from '../../domain/errors.js';
import { nextMembers, sameHierarchy } from '../../domain/group/rules.js';
import type { GroupMembership, SubscriptionGroup } from '../../domain/group/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { indexGet } from '../../kernel/collection.js';
import { uidOf } from '../../kernel/ids.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/**
 * The membership row of a subscription through the stored index: memberships this transaction deleted
 * are gone, ones it inserted are not seen yet (every operation here validates before it writes).
 */
export function membershipOf(tx: Transaction, subscriptionId: number): GroupMembership | undefined {
  const id = indexGet(tx.state.indexes.groupMembershipSubscriptions, String(subscriptionId));
  const stored = id === undefined ? undefined : tx.get('groupMemberships', id);
  return stored !== undefined && stored.subscriptionId === subscriptionId ? stored : undefined;
}

/** The group a subscription is in, if any. */
export function groupOf(tx: Transaction, subscriptionId: number): SubscriptionGroup | undefined {
  const membership = membershipOf(tx, subscriptionId);
  return membership === undefined ? undefined : tx.get('subscriptionGroups', membership.groupId);
}

/** A customer's parent lookup over this transaction. */
export const parentLookup =
  (tx: Transaction) =>
  (customerId: number): number | null | undefined =>
    tx.get('customers', customerId)?.parentId;

/**
 * The first group a customer is the responsible payer of (the customer's group), if any. Read through
 * the stored `groupCustomers` list: groups this transaction created are not seen yet (every caller
 * looks up before it writes).
 */
export function customerGroup(tx: Transaction, customerId: number): SubscriptionGroup | undefined {
  for (const id of listed(tx.state.listIndexes, 'groupCustomers', customerId)) {
    const group = tx.get('subscriptionGroups', id);
    if (group?.customerId === customerId) return group;
  }
  return undefined;
}

/** Why a subscription cannot join a group paid by `payerId`, or null when it can. */
export function joinProblem(tx: Transaction, subscription: Subscription, payerId: number): string | null {
  if (membershipOf(tx, subscription.id) !== undefined)
    return `Subscription ${subscription.id} is already in a subscription group.`;
  if (!sameHierarchy(parentLookup(tx), subscription.customerId, payerId))
    return `Subscription ${subscription.id} does not belong to the group's customer or its customer hierarchy.`;
  return null;
}

/** The default payment profile for a new group: the primary's own profile when the payer owns it. */
function defaultProfile(tx: Transaction, payerId: number, primary: Subscription): number | null {
  const own =
    primary.paymentProfileId === null ? undefined : tx.get('paymentProfiles', primary.paymentProfileId);
  if (own !== undefined && own.customerId === payerId) return own.id;
  for (const id of listed(tx.state.listIndexes, 'customerPaymentProfiles', payerId)) {
    const profile = tx.get('paymentProfiles', id);
    if (profile?.customerId === payerId) return profile.id;
  }
  return null;
}

/** Writes a group's new member list and the membership rows it implies; an empty list deletes the group. */
export function writeMembers(tx: Transaction, group: SubscriptionGroup, members: readonly number[]): void {
  for (const id of group.memberIds) {
    if (members.includes(id)) continue;
    const membership = membershipOf(tx, id);
    if (membership !== undefined) tx.remove('groupMemberships', membership.id);
    tx.record({
      key: 'subscription_removed_from_group',
      message: `Subscription ${id} left group ${group.uid}.`,
      subscriptionId: id,
    });
  }
  for (const id of members) {
    if (group.memberIds.includes(id)) continue;
    tx.put('groupMemberships', { id: tx.nextId('groupMemberships'), subscriptionId: id, groupId: group.id });
    tx.record({
      key: 'subscription_added_to_group',
      message: `Subscription ${id} joined group ${group.uid}.`,
      subscriptionId: id,
    });
  }
  const [primary] = members;
  if (primary === undefined) {
    tx.remove('subscriptionGroups', group.id);
    return;
  }
  tx.put('subscriptionGroups', {
    ...group,
    primarySubscriptionId: primary,
    memberIds: [...members],
    updatedAt: tx.now,
  });
}

export interface NewGroup {
  readonly payerId: number;
  readonly primary: Subscription;
  readonly others: readonly Subscription[];
  readonly paymentProfileId?: number;
}

/** Creates a group; the caller has checked every member with `joinProblem`. */
export function createGroup(tx: Transaction, input: NewGroup): SubscriptionGroup {
  const id = tx.nextId('subscriptionGroups');
  const members = nextMembers(
    input.primary.id,
    input.others.map((subscription) => subscription.id),
  );
  const group: SubscriptionGroup = {
    id,
    uid: uidOf('grp', id),
    customerId: input.payerId,
    paymentProfileId: input.paymentProfileId ?? defaultProfile(tx, input.payerId, input.primary),
    primarySubscriptionId: input.primary.id,
    memberIds: [],
    createdAt: tx.now,
    updatedAt: tx.now,
  };
  writeMembers(tx, group, members);
  return tx.get('subscriptionGroups', id) ?? group;
}

/**
 * Sets a group's members to `listed` (the official API's Update Members). A non-empty list must name the
 * primary, which is always a member while the group exists. An empty list removes every member ("an empty
 * array removes all", as the official API says), the primary too, and with no member left the group itself
 * is deleted, as when its last member leaves: the answer shows it with no `subscription_ids`, and reading it
 * afterwards is a 404.
 */
export function updateMembers(
  tx: Transaction,
  group: SubscriptionGroup,
  listed: readonly number[],
): Result<SubscriptionGroup, string[]> {
  if (listed.length > 0 && !listed.includes(group.primarySubscriptionId))
    return err([
      `The primary subscription ${group.primarySubscriptionId} must stay a member; list it or send an empty array.`,
    ]);
  const problems: string[] = [];
  for (const id of new Set(listed)) {
    if (group.memberIds.includes(id)) continue;
    const subscription = tx.get('subscriptions', id);
    if (subscription === undefined) {
      problems.push(`Subscription ${id} not found.`);
      continue;
    }
    const problem = joinProblem(tx, subscription, group.customerId);
    if (problem !== null) problems.push(problem);
  }
  if (problems.length > 0) return err(problems);
  if (listed.length === 0) {
    deleteGroup(tx, group);
    return ok({ ...group, memberIds: [], updatedAt: tx.now });
  }
  writeMembers(tx, group, nextMembers(group.primarySubscriptionId, listed));
  return ok(tx.get('subscriptionGroups', group.id) ?? group);
}

/**
 * Removes one subscription from its group. The primary may leave only as the last member (the group
 * is then deleted), so the primary is always a member.
 */
export function leaveGroup(tx: Transaction, subscriptionId: number): Result<void, DomainError> {
  const group = groupOf(tx, subscriptionId);
  if (group === undefined)
    return err({
      code: 'not_in_group',
      status: 404,
      message: 'The subscription is not in a subscription group.',
    });
  if (group.primarySubscriptionId === subscriptionId && group.memberIds.length > 1)
    return err(
      invalid('primary_member', 'The primary subscription cannot leave a group that has other members.'),
    );
  writeMembers(
    tx,
    group,
    group.memberIds.filter((id) => id !== subscriptionId),
  );
  return ok(undefined);
}

/** Deletes a group and all its memberships. */
export function deleteGroup(tx: Transaction, group: SubscriptionGroup): void {
  writeMembers(tx, group, []);
}
