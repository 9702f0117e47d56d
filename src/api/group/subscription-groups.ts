/** Subscription groups: create, read, list, update members, delete, lookup, default profile. */
import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import {
  createGroup,
  deleteGroup,
  groupOf,
  joinProblem,
  updateMembers,
} from '../../engine/group/membership.js';
import type { Transaction } from '../../engine/transaction.js';
import { idOfUid, parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { findRef, missing, pageOf, paging } from '../common.js';
import { decode, failureMessages, z, zId } from '../decode.js';
import { errorResponse, fieldErrors } from '../errors.js';
import { presentPaymentProfile } from '../payment/payment-profiles.js';
import { type Route, reply } from '../route.js';
import { presentFullGroup, presentGroup } from './subscription-groups-present.js';

/** A group by its `grp_...` uid. */
export function findGroup(tx: Transaction, uid: string): SubscriptionGroup | undefined {
  const id = idOfUid('grp', uid);
  const group = id === undefined ? undefined : tx.get('subscriptionGroups', id);
  return group?.uid === uid ? group : undefined;
}

const MAX_MEMBERS = 1000;
const memberIds = z.array(zId()).max(MAX_MEMBERS, `must list at most ${MAX_MEMBERS} subscriptions`);

const createBody = z.object({
  subscription_group: z.object({
    subscription_id: zId(),
    member_ids: memberIds.optional(),
    payment_profile_id: zId().optional(),
  }),
});
const updateBody = z.object({ subscription_group: z.object({ member_ids: memberIds }) });

const short = (group: SubscriptionGroup) => (state: Parameters<typeof presentGroup>[0]) => ({
  subscription_group: presentGroup(state, group),
});

function create(tx: Transaction, body: unknown) {
  const decoded = decode(createBody, body ?? {});
  if (!decoded.ok) return err(fieldErrors({ subscription_group: failureMessages(decoded.error) }));
  const input = decoded.value.subscription_group;
  const primary = tx.get('subscriptions', input.subscription_id);
  if (primary === undefined) return err(fieldErrors({ subscription_group: ['Subscription: not found.'] }));
  const payerId = primary.customerId;
  const primaryProblem = joinProblem(tx, primary, payerId);
  if (primaryProblem !== null) return err(fieldErrors({ subscription_group: [primaryProblem] }));
  const others: Subscription[] = [];
  const problems: string[] = [];
  for (const id of new Set(input.member_ids ?? [])) {
    if (id === primary.id) continue;
    const member = tx.get('subscriptions', id);
    const problem = member === undefined ? `Subscription ${id} not found.` : joinProblem(tx, member, payerId);
    if (problem !== null) problems.push(problem);
    else if (member !== undefined) others.push(member);
  }
  if (problems.length > 0) return err(fieldErrors({ members: problems }));
  if (input.payment_profile_id !== undefined) {
    const profile = tx.get('paymentProfiles', input.payment_profile_id);
    if (profile?.customerId !== payerId)
      return err(
        fieldErrors({ subscription_group: ["Payment profile: must belong to the group's customer."] }),
      );
  }
  const group = createGroup(tx, {
    payerId,
    primary,
    others,
    ...(input.payment_profile_id === undefined ? {} : { paymentProfileId: input.payment_profile_id }),
  });
  return reply(201, short(group));
}

export const subscriptionGroupRoutes = [
  {
    method: 'POST',
    path: '/subscription_groups.json',
    body: createBody,
    run: ({ tx, body }) => create(tx, body),
  },
  {
    method: 'GET',
    path: '/subscription_groups.json',
    query: ['page', 'per_page', 'include', 'include[]'],
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const include = [query.get('include'), query.get('include[]')].join(',');
      const groups = pageOf(tx.rows('subscriptionGroups'), page.value.page, page.value.perPage);
      return reply(200, (state) => ({
        subscription_groups: groups.map((group) => ({
          ...presentFullGroup(state, group, include.includes('account_balances')),
          group_type: 'single_customer',
        })),
        meta: { current_page: page.value.page, total_count: state.tables.subscriptionGroups.count },
      }));
    },
  },
  {
    method: 'GET',
    path: '/subscription_groups/lookup.json',
    query: ['subscription_id'],
    run: ({ tx, query }) => {
      const text = query.get('subscription_id');
      const id = parseId(text);
      if (id === undefined) return err({ response: errorResponse(422, 'subscription_id: is required') });
      if (tx.get('subscriptions', id) === undefined) return err(missing('Subscription'));
      const group = groupOf(tx, id);
      if (group === undefined) return err(missing('Subscription group'));
      return reply(200, (state) => presentFullGroup(state, group));
    },
  },
  {
    method: 'GET',
    path: '/subscription_groups/{uid}.json',
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      return reply(200, (state) => presentFullGroup(state, group));
    },
  },
  {
    method: 'PUT',
    path: '/subscription_groups/{uid}.json',
    body: updateBody,
    run: ({ tx, params, body }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const decoded = decode(updateBody, body ?? {});
      if (!decoded.ok) return err(fieldErrors({ members: failureMessages(decoded.error) }));
      const updated = updateMembers(tx, group, decoded.value.subscription_group.member_ids);
      if (!updated.ok) return err(fieldErrors({ members: updated.error }));
      return reply(200, short(updated.value));
    },
  },
  {
    method: 'DELETE',
    path: '/subscription_groups/{uid}.json',
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      deleteGroup(tx, group);
      return reply(200, () => ({ uid: group.uid, deleted: true }));
    },
  },
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/payment_profiles/{payment_profile_id}/change_payment_profile.json',
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const profile = findRef(tx, 'paymentProfiles', params['payment_profile_id'] ?? '');
      if (profile === undefined) return err(missing('Payment profile'));
      if (profile.customerId !== group.customerId)
        return err({
          response: errorResponse(
            422,
            "The payment profile does not belong to the subscription group's customer.",
          ),
        });
      tx.put('subscriptionGroups', { ...group, paymentProfileId: profile.id, updatedAt: tx.now });
      return reply(200, (state) => ({ payment_profile: presentPaymentProfile(state, profile) }));
    },
  },
] as const satisfies readonly Route[];
