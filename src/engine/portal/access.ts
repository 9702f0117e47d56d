/** Whether a billing portal management link still opens a site's portal. */
import {
  type LinkRejection,
  type ManagementLink,
  verifyManagementLink,
  wholeSeconds,
} from '../../domain/portal/link.js';
import { indexGet, tableGet } from '../../kernel/collection.js';
import { err, type Result } from '../../kernel/result.js';
import { toInstant } from '../../kernel/time.js';
import type { SiteState } from '../state.js';

/**
 * Verifies a management link against a site: its signature under the site's `portalSecret` and its
 * 65-day validity (`verifyManagementLink`), then that the customer still has portal access and the link
 * was made since access was (last) enabled and after the last revocation, so revoking access voids every
 * earlier link (`revoked`), even when access is enabled again within the same second. A site without a
 * `portalSecret` verifies no link (`bad_signature`).
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
  const secret = state.settings.portalSecret;
  if (secret === null) {
    toInstant(now);
    return err('bad_signature');
  }
  const verified = verifyManagementLink(url, secret, now, state.settings.timeZone);
  if (!verified.ok) return verified;
  const customer = tableGet(state.tables.customers, verified.value.customerId);
  const enabledAt = customer?.portalCustomerCreatedAt ?? null;
  if (enabledAt === null || verified.value.createdAt < wholeSeconds(enabledAt)) return err('revoked');
  const portalId = indexGet(state.indexes.portalCustomers, String(verified.value.customerId));
  const validFrom =
    portalId === undefined ? null : (tableGet(state.tables.portals, portalId)?.linksValidFrom ?? null);
  if (validFrom !== null && verified.value.createdAt < validFrom) return err('revoked');
  return verified;
}
