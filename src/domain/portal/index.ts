/** The billing portal: signed management links and their limits. */
export {
  LINK_MAX_FETCHES,
  LINK_RENEWAL_DAYS,
  LINK_VALID_DAYS,
  type LinkRead,
  type LinkRejection,
  linksValidAfterRevocation,
  type ManagementLink,
  managementLinkFor,
  PORTAL_LINK_BASE,
  readLink,
  verifyManagementLink,
  wholeSeconds,
} from './link.js';
export type { CustomerPortal } from './types.js';
