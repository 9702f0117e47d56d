/** Add a subscription to a group by target, and remove it (`/subscriptions/{id}/group.json`). */
import type { DomainError } from '../../domain/errors.js';
import { invalid } from '../../domain/errors.js';
import { rootCustomer } from '../../domain/group/rules.js';
import { GROUP_TARGET_TYPES, type SubscriptionGroup } from '../../domain/group/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { alignToPrimary } from '../../engine/group/align.js';
import {
  createGroup,
  customerGroup,
  groupOf,
  joinProblem,
  leaveGroup,
  parentLookup,
  writeMembers,
} from '../../engine/group/membership.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zBool, zId } from '../decode.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { presentGroup } from './subscription-groups-present.js';

const addBody = z.object({
  group: z.object({
    target: z.object({ type: z.enum(GROUP_TARGET_TYPES), id: zId().optional() }),
    billing: z.object({ accrue: zBool(), align_date: zBool(), prorate: zBool() }).partial().optional(),
  }),
});
type Target = z.infer<typeof addBody>['group']['target'];

const targetError = (message: string): DomainError => invalid('invalid_group_target', message, 'target');

/**
 * Charges are never accrued: a prorated alignment charge is billed when the subscription joins (the
 * engine keeps no ledger of accrued group charges), so `accrue: true` is refused rather than ignored;
 * `prorate` settles an alignment, so it needs `align_date`.
 */
function billingOptionsProblem(
  billing: Partial<Record<'accrue' | 'align_date' | 'prorate', boolean | undefined>>,
) {
  if (billing.accrue === true)
    return 'billing.accrue is not supported: a prorated charge is billed when the subscription joins.';
  if (billing.prorate === true && billing.align_date !== true)
    return 'billing.prorate needs billing.align_date: only an aligned billing date is prorated.';
  return null;
}

/** Who pays (the target customer) and, when the target is already grouped, the group to join. */
interface Resolved {
  readonly payerId: number;
  readonly group: SubscriptionGroup | undefined;
}

function resolveTarget(
  tx: Transaction,
  subscription: Subscription,
  target: Target,
): Result<Resolved, DomainError> {
  switch (target.type) {
    case 'customer': {
      if (target.id === undefined) return err(targetError('Target: a customer target needs an id.'));
      if (tx.get('customers', target.id) === undefined)
        return err(targetError('Target: customer not found.'));
      return ok({ payerId: target.id, group: customerGroup(tx, target.id) });
    }
    case 'subscription': {
      if (target.id === undefined) return err(targetError('Target: a subscription target needs an id.'));
      const other = tx.get('subscriptions', target.id);
      if (other === undefined) return err(targetError('Target: subscription not found.'));
      if (other.id === subscription.id)
        return err(targetError('Target: a subscription cannot target itself.'));
      const group = groupOf(tx, other.id) ?? customerGroup(tx, other.customerId);
      return ok({ payerId: group?.customerId ?? other.customerId, group });
    }
    case 'self':
      return ok({ payerId: subscription.customerId, group: customerGroup(tx, subscription.customerId) });
    case 'parent': {
      const parentId = tx.get('customers', subscription.customerId)?.parentId ?? null;
      if (parentId === null) return err(targetError("Target: the subscription's customer has no parent."));
      return ok({ payerId: parentId, group: customerGroup(tx, parentId) });
    }
    case 'eldest': {
      const rootId = rootCustomer(parentLookup(tx), subscription.customerId);
      return ok({ payerId: rootId, group: customerGroup(tx, rootId) });
    }
  }
}

export const groupTargetRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/group.json',
    body: addBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(addBody, body);
      if (!input.ok) return input;
      const billing = input.value.group.billing ?? {};
      const billingProblem = billingOptionsProblem(billing);
      if (billingProblem !== null) return err(invalid('invalid_group_billing', billingProblem, 'billing'));
      const resolved = resolveTarget(tx, subscription, input.value.group.target);
      if (!resolved.ok) return resolved;
      const { payerId, group } = resolved.value;
      const problem = joinProblem(tx, subscription, payerId);
      if (problem !== null) return err(invalid('cannot_join_group', problem));
      if (group === undefined) {
        // The first member is the primary: there is no other billing date to align to.
        const created = createGroup(tx, { payerId, primary: subscription, others: [] });
        return reply(200, (state) => ({ subscription_group: presentGroup(state, created) }));
      }
      writeMembers(tx, group, [...group.memberIds, subscription.id]);
      const joined = tx.get('subscriptionGroups', group.id) ?? group;
      if (billing.align_date === true) {
        const aligned = alignToPrimary(tx, joined, subscription, billing.prorate === true, gateway);
        if (!aligned.ok) return aligned;
      }
      return reply(200, (state) => ({ subscription_group: presentGroup(state, joined) }));
    },
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}/group.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const left = leaveGroup(tx, subscription.id);
      if (!left.ok) return left;
      return reply(204);
    },
  },
] as const satisfies readonly Route[];
