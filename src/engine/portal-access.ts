/** Whether a billing portal management link still opens a site's portal. */
import {
  type LinkRejection,
  type ManagementLink,
  verifyManagementLink,
  wholeSeconds,
} from '../domain/portal/link.js';
import { tableGet } from '../kernel/collection.js';
import { err, type Result } from '../kernel/result.js';
import type { SiteState } from './state.js';

/**
 * Verifies a management link against a site: its signature under the site's `portalSecret` and its
 * 65-day validity (`verifyManagementLink`), then that the customer still has portal access and the link
 * was made since access was (last) enabled, so revoking access voids every earlier link (`revoked`).
 * Throws a `RangeError` for an invalid `now`.
 * @example
 * const verdict = verifyPortalLink(state, url, '2026-02-01T00:00:00Z');
 * if (!verdict.ok) respond(403, verdict.error); // 'malformed' | 'bad_signature' | 'expired' | 'revoked'
 */
export function verifyPortalLink(
  state: SiteState,
  url: string,
  now: string | Date,
): Result<ManagementLink, LinkRejection | 'revoked'> {
  const verified = verifyManagementLink(url, state.settings.portalSecret, now, state.settings.timeZone);
  if (!verified.ok) return verified;
  const customer = tableGet(state.tables.customers, verified.value.customerId);
  const enabledAt = customer?.portalCustomerCreatedAt ?? null;
  if (enabledAt === null || verified.value.createdAt < wholeSeconds(enabledAt)) return err('revoked');
  return verified;
}
