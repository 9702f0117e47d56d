/**
 * Billing portal management links. A link is
 * `https://www.billingportal.com/manage/{customer id}/{creation, epoch seconds}/{signature}`, the signature
 * being the hex HMAC-SHA256, under the site's portal secret, of `{customer id}/{creation seconds}`. A link
 * is valid for 65 days (calendar days in the site's zone, so the local time of day is kept across DST);
 * the same link is handed out for 15 days, at most 15 times.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { epochMs, fromEpochMs, type Instant, shiftFromAnchor, toInstant } from '../../kernel/time.js';

/** Where management links point. */
export const PORTAL_LINK_BASE = 'https://www.billingportal.com/manage';
/** Days a link is valid. */
export const LINK_VALID_DAYS = 65;
/** Days before a new link is generated. */
export const LINK_RENEWAL_DAYS = 15;
/** Reads of one link allowed before `new_link_available_at`. */
export const LINK_MAX_FETCHES = 15;

/**
 * A billing portal management link, with when it was made, when a new one may be made and when it expires.
 */
export interface ManagementLink {
  /** The signed link. */
  readonly url: string;
  /** The customer it manages. */
  readonly customerId: number;
  /** The creation instant, in whole seconds (the URL carries seconds). */
  readonly createdAt: Instant;
  /** When a new link is handed out instead of this one (15 days after creation). */
  readonly newLinkAvailableAt: Instant;
  /** When it stops being valid (65 days after creation). */
  readonly expiresAt: Instant;
}

/** Why a link does not verify. */
export type LinkRejection = 'malformed' | 'bad_signature' | 'expired';

const LINK_PATTERN = /^\/([1-9]\d{0,14})\/(0|[1-9]\d{0,11})\/([0-9a-f]{64})$/;

/** An instant truncated to whole seconds. @example wholeSeconds('2026-01-01T00:00:00.900Z') // '2026-01-01T00:00:00.000Z' */
export const wholeSeconds = (instant: Instant): Instant =>
  fromEpochMs(Math.floor(epochMs(instant) / 1000) * 1000);

const signatureOf = (customerId: number, seconds: number, secret: string): string =>
  bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${customerId}/${seconds}`)));

/**
 * The management link of a customer created at an instant (truncated to whole seconds).
 * @example
 * managementLinkFor(7, '2026-01-15T12:00:00Z', 'secret').url
 * // 'https://www.billingportal.com/manage/7/1768478400/<64 hex digits>'
 */
export function managementLinkFor(
  customerId: number,
  createdAt: Instant,
  secret: string,
  timeZone = 'UTC',
): ManagementLink {
  const created = wholeSeconds(createdAt);
  const seconds = epochMs(created) / 1000;
  return {
    url: `${PORTAL_LINK_BASE}/${customerId}/${seconds}/${signatureOf(customerId, seconds, secret)}`,
    customerId,
    createdAt: created,
    newLinkAvailableAt: shiftFromAnchor(created, timeZone, { days: LINK_RENEWAL_DAYS }, 1),
    expiresAt: shiftFromAnchor(created, timeZone, { days: LINK_VALID_DAYS }, 1),
  };
}

/**
 * The first instant (whole seconds) at which links are valid again after a revocation at `revokedAt`:
 * the next whole second, so every link dated up to the revocation's second is void.
 * @example linksValidAfterRevocation('2026-01-15T12:00:00.400Z') // '2026-01-15T12:00:01.000Z'
 */
export const linksValidAfterRevocation = (revokedAt: Instant): Instant =>
  fromEpochMs(epochMs(wholeSeconds(revokedAt)) + 1000);

/** Compares two strings of equal length in time independent of where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Verifies a management link against a secret at an instant: `malformed` (not a link of this shape),
 * `bad_signature` (any part altered, or another secret), `expired` (65 days or more after its creation),
 * or the link. It does not know whether the portal was since revoked: `verifyPortalLink` checks that
 * against a site's state. Throws a `RangeError` for an invalid `now`, as `toInstant` does.
 * @example
 * const link = managementLinkFor(7, '2026-01-15T12:00:00Z', 'secret');
 * verifyManagementLink(link.url, 'secret', '2026-02-01T00:00:00Z').ok // true
 * verifyManagementLink(link.url, 'other', '2026-02-01T00:00:00Z') // err('bad_signature')
 */
export function verifyManagementLink(
  url: string,
  secret: string,
  now: string | Date,
  timeZone = 'UTC',
): Result<ManagementLink, LinkRejection> {
  const instant = toInstant(now);
  if (typeof url !== 'string' || !url.startsWith(PORTAL_LINK_BASE)) return err('malformed');
  const match = LINK_PATTERN.exec(url.slice(PORTAL_LINK_BASE.length));
  const customerId = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  const signature = match?.[3];
  if (signature === undefined || !Number.isSafeInteger(customerId) || seconds > 253_402_300_799)
    return err('malformed');
  if (!sameText(signature, signatureOf(customerId, seconds, secret))) return err('bad_signature');
  const link = managementLinkFor(customerId, fromEpochMs(seconds * 1000), secret, timeZone);
  if (instant >= link.expiresAt) return err('expired');
  return ok(link);
}

/** The current link's creation and read count after one more read. */
export interface LinkRead {
  readonly createdAt: Instant;
  readonly fetchCount: number;
}

/**
 * Decides a read of a customer's management link: a new link (created now) when there is none or the
 * current one is 15 days old; the same link with one more read otherwise; refused (with the instant a new
 * link becomes available) when the current link was already read 15 times.
 * @example
 * readLink(null, 0, '2026-01-15T12:00:00.000Z', 'UTC') // ok({ createdAt: '2026-01-15T12:00:00.000Z', fetchCount: 1 })
 * A new link is never dated before `validFrom` (the second after the last revocation).
 */
export function readLink(
  createdAt: Instant | null,
  fetchCount: number,
  now: Instant,
  timeZone: string,
  validFrom: Instant | null = null,
): Result<LinkRead, { readonly newLinkAvailableAt: Instant }> {
  const renewal =
    createdAt === null ? null : shiftFromAnchor(createdAt, timeZone, { days: LINK_RENEWAL_DAYS }, 1);
  if (createdAt === null || renewal === null || now >= renewal) {
    // A link made in the second of a revocation is dated the second after, so that it is not void.
    const created = wholeSeconds(now);
    return ok({ createdAt: validFrom !== null && created < validFrom ? validFrom : created, fetchCount: 1 });
  }
  if (fetchCount >= LINK_MAX_FETCHES) return err({ newLinkAvailableAt: renewal });
  return ok({ createdAt, fetchCount: fetchCount + 1 });
}
