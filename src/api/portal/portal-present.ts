/** Billing portal wire shapes: the management link, the invitation answers, the refusal bodies. */

import type { Customer } from '../../domain/customer/types.js';
import type { ManagementLink } from '../../domain/portal/link.js';
import type { SiteState } from '../../engine/state.js';
import { tableRows } from '../../kernel/collection.js';
import type { Instant } from '../../kernel/time.js';
import { stamp } from '../common.js';
import type { RouteError } from '../route.js';

/** The bare `PortalManagementLink` of the official API. */
export const presentManagementLink = (
  state: SiteState,
  link: ManagementLink,
  fetchCount: number,
  customer: Customer,
) => ({
  url: link.url,
  fetch_count: fetchCount,
  created_at: stamp(state, link.createdAt),
  new_link_available_at: stamp(state, link.newLinkAvailableAt),
  expires_at: stamp(state, link.expiresAt),
  last_invite_sent_at: stamp(state, customer.portalInviteLastSentAt),
});

/** Customers of the site that hold no invitation to the portal. */
function uninvitedCount(state: SiteState): number {
  let count = 0;
  for (const customer of tableRows(state.tables.customers))
    if (customer.portalInviteLastSentAt === null) count += 1;
  return count;
}

/** The bare `ResentInvitation` of the official API. */
export const presentResentInvitation = (state: SiteState, customer: Customer) => ({
  last_sent_at: stamp(state, customer.portalInviteLastSentAt),
  last_accepted_at: stamp(state, customer.portalInviteLastAcceptedAt),
  last_invite_sent_at: stamp(state, customer.portalInviteLastSentAt),
  last_invite_accepted_at: stamp(state, customer.portalInviteLastAcceptedAt),
  send_invite_link_text: 'Resend invitation',
  uninvited_count: uninvitedCount(state),
});

/** The bare `RevokedInvitation` of the official API, with the `message` other revocations answer. */
export const presentRevokedInvitation = (state: SiteState) => ({
  message: 'Invitation revoked',
  last_sent_at: 'Not Invited',
  last_accepted_at: 'Invite Revoked',
  uninvited_count: uninvitedCount(state),
});

/** 429 in the official `TooManyManagementLinkRequests` shape. */
export const tooManyLinkRequests = (state: SiteState, newLinkAvailableAt: Instant): RouteError => {
  const at = stamp(state, newLinkAvailableAt);
  return {
    response: {
      status: 429,
      body: {
        errors: {
          error: `The management link was already requested 15 times; a new link is available at ${at}.`,
          new_link_available_at: at,
        },
      },
    },
  };
};
