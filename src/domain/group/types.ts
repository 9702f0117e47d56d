/** Subscription groups: several subscriptions billed to one responsible customer. */
import type { Instant } from '../../kernel/time.js';

/** How add-to-group names the group's responsible customer. */
export const GROUP_TARGET_TYPES = ['customer', 'subscription', 'self', 'parent', 'eldest'] as const;
/**
 * Who pays for a group a subscription joins: a `customer` or another `subscription`'s payer (by id), or the
 * subscription's own customer (`self`), its parent (`parent`) or the root of its hierarchy (`eldest`).
 */
export type GroupTargetType = (typeof GROUP_TARGET_TYPES)[number];

/** A subscription group: subscriptions billed together to one responsible customer. */
export interface SubscriptionGroup {
  /** The group's id. */
  readonly id: number;
  /** `grp_...`, encoding the id (see `uidOf`). */
  readonly uid: string;
  /** The responsible payer. */
  readonly customerId: number;
  /** The group's default payment profile: always one of `customerId`'s profiles, or null. */
  readonly paymentProfileId: number | null;
  /** Always the first of `memberIds`: the primary is always a member. */
  readonly primarySubscriptionId: number;
  /** Every member, primary first, then in the order they joined. Each has one `groupMemberships` row. */
  readonly memberIds: readonly number[];
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** One subscription's membership: the row behind the subscription-id → group index. */
export interface GroupMembership {
  /** The row's id. */
  readonly id: number;
  /** The member. */
  readonly subscriptionId: number;
  /** Its group. */
  readonly groupId: number;
}
