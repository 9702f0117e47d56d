/** A customer's billing portal: its current management link and the invitations recently sent. */
import type { Instant } from '../../kernel/time.js';

/**
 * One row per customer whose portal was ever enabled. Whether the portal is enabled now is the customer's
 * `portalCustomerCreatedAt` (null: disabled); this row keeps what the API's limits need.
 */
export interface CustomerPortal {
  readonly id: number;
  readonly customerId: number;
  /** Creation of the current management link (whole seconds); null before the first read or after revocation. */
  readonly linkCreatedAt: Instant | null;
  /** How many times the current link was read. */
  readonly linkFetchCount: number;
  /** Instants of the invitations sent within the current 30-minute window, oldest first. */
  readonly recentInvitations: readonly Instant[];
  /**
   * Links created before this instant (whole seconds) are void: set on revocation to the second after
   * it, so revoking and enabling again within one second (or at one frozen instant) still voids every
   * earlier link. Absent (rows written before it existed) or null: never revoked.
   */
  readonly linksValidFrom?: Instant | null;
}
