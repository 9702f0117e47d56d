/** A note on a subscription: free text the merchant keeps with it. */
import type { Instant } from '../../kernel/time.js';

/** A merchant's note on a subscription. */
export interface SubscriptionNote {
  /** The note's id. */
  readonly id: number;
  /** The subscription it is on. */
  readonly subscriptionId: number;
  /** Its text. */
  readonly body: string;
  /** Whether it is pinned above the others. */
  readonly sticky: boolean;
  /** When it was written. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}
