import { describe, expect, it } from 'vitest';
import {
  LINK_MAX_FETCHES,
  managementLinkFor,
  PORTAL_LINK_BASE,
  readLink,
  verifyManagementLink,
} from '../../../src/domain/portal/index.js';

const SECRET = 'portal-secret';
const CREATED = '2026-01-15T12:00:00.000Z';

/** Replaces one path part of a link: 0 customer id, 1 timestamp, 2 signature. */
function withPart(url: string, index: number, value: string): string {
  const parts = url.slice(PORTAL_LINK_BASE.length + 1).split('/');
  parts[index] = value;
  return `${PORTAL_LINK_BASE}/${parts.join('/')}`;
}

describe('management links', () => {
  it('carry the customer id, the creation in epoch seconds and a 64-hex HMAC-SHA256 signature', () => {
    const link = managementLinkFor(7, '2026-01-15T12:00:00.900Z', SECRET);
    expect(link.url).toMatch(new RegExp(`^${PORTAL_LINK_BASE}/7/1768478400/[0-9a-f]{64}$`));
    expect(link.createdAt).toBe(CREATED);
    expect(link.newLinkAvailableAt).toBe('2026-01-30T12:00:00.000Z');
    expect(link.expiresAt).toBe('2026-03-21T12:00:00.000Z');
    // Deterministic: the same customer, second and secret give the same URL; anything else changes it.
    expect(managementLinkFor(7, CREATED, SECRET).url).toBe(link.url);
    expect(managementLinkFor(8, CREATED, SECRET).url).not.toBe(link.url);
    expect(managementLinkFor(7, '2026-01-15T12:00:01.000Z', SECRET).url).not.toBe(link.url);
    expect(managementLinkFor(7, CREATED, 'other').url).not.toBe(link.url);
  });

  it('count 15 and 65 calendar days in the site zone, keeping the local time across DST', () => {
    // The official example: created 2018-02-02T18:34:29Z, expires 2018-04-08T17:34:29Z.
    const link = managementLinkFor(19804639, '2018-02-02T18:34:29Z', SECRET, 'America/New_York');
    expect(link.url).toContain('/manage/19804639/1517596469/');
    expect(link.newLinkAvailableAt).toBe('2018-02-17T18:34:29.000Z');
    expect(link.expiresAt).toBe('2018-04-08T17:34:29.000Z');
  });

  it('verify when untouched, within 65 days', () => {
    const link = managementLinkFor(7, CREATED, SECRET);
    const verified = verifyManagementLink(link.url, SECRET, '2026-03-21T11:59:59Z');
    expect(verified).toEqual({ ok: true, value: link });
    expect(verifyManagementLink(link.url, SECRET, new Date(CREATED)).ok).toBe(true);
  });

  it('expire 65 days after their creation, to the second', () => {
    const link = managementLinkFor(7, CREATED, SECRET);
    expect(verifyManagementLink(link.url, SECRET, '2026-03-21T11:59:59.999Z').ok).toBe(true);
    expect(verifyManagementLink(link.url, SECRET, '2026-03-21T12:00:00Z')).toEqual({
      ok: false,
      error: 'expired',
    });
    expect(verifyManagementLink(link.url, SECRET, '2027-01-01T00:00:00Z')).toEqual({
      ok: false,
      error: 'expired',
    });
  });

  it('refuse a tampered customer id, timestamp or signature, and another secret (bad_signature)', () => {
    const link = managementLinkFor(7, CREATED, SECRET);
    const signature = link.url.slice(-64);
    const flipped = `${signature.slice(0, 10)}${signature[10] === '0' ? '1' : '0'}${signature.slice(11)}`;
    const tampered = [
      withPart(link.url, 0, '8'),
      withPart(link.url, 1, '1768478401'),
      // Moving the creation later would extend the validity: the signature forbids it.
      withPart(link.url, 1, '1799999999'),
      withPart(link.url, 2, flipped),
      withPart(link.url, 2, '0'.repeat(64)),
    ];
    for (const url of tampered) {
      expect(verifyManagementLink(url, SECRET, '2026-02-01T00:00:00Z'), url).toEqual({
        ok: false,
        error: 'bad_signature',
      });
    }
    expect(verifyManagementLink(link.url, 'other-secret', '2026-02-01T00:00:00Z')).toEqual({
      ok: false,
      error: 'bad_signature',
    });
  });

  it('refuse anything that is not a link of this shape (malformed)', () => {
    const link = managementLinkFor(7, CREATED, SECRET);
    const malformed = [
      '',
      'not a url',
      link.url.replace('https://www.billingportal.com', 'https://evil.example'),
      `${link.url}/extra`,
      `${link.url}?x=1`,
      link.url.slice(0, -1),
      link.url.toUpperCase(),
      withPart(link.url, 0, '0'),
      withPart(link.url, 0, '-7'),
      withPart(link.url, 0, '07'),
      withPart(link.url, 1, '01768478400'),
      withPart(link.url, 1, '1e9'),
      withPart(link.url, 1, '9999999999999'),
      `${PORTAL_LINK_BASE}/7/1768478400`,
    ];
    for (const url of malformed) {
      expect(verifyManagementLink(url, SECRET, '2026-02-01T00:00:00Z'), url).toEqual({
        ok: false,
        error: 'malformed',
      });
    }
    expect(verifyManagementLink(42 as unknown as string, SECRET, CREATED)).toEqual({
      ok: false,
      error: 'malformed',
    });
  });

  it('accept creation times up to the last second of year 9999 and nothing later', () => {
    const link = managementLinkFor(7, CREATED, SECRET);
    // The signature of another timestamp: only the range check decides between the two answers.
    expect(verifyManagementLink(withPart(link.url, 1, '253402300799'), SECRET, CREATED)).toEqual({
      ok: false,
      error: 'bad_signature',
    });
    expect(verifyManagementLink(withPart(link.url, 1, '253402300800'), SECRET, CREATED)).toEqual({
      ok: false,
      error: 'malformed',
    });
  });

  it('throw a RangeError for an invalid now, as toInstant does', () => {
    const link = managementLinkFor(7, CREATED, SECRET);
    expect(() => verifyManagementLink(link.url, SECRET, 'yesterday')).toThrow(RangeError);
  });
});

describe('readLink', () => {
  const zone = 'UTC';
  it('makes a new link on the first read, reuses it with one more read, refuses the 16th read', () => {
    expect(readLink(null, 0, '2026-01-15T12:00:00.500Z', zone)).toEqual({
      ok: true,
      value: { createdAt: CREATED, fetchCount: 1 },
    });
    expect(readLink(CREATED, 1, '2026-01-20T00:00:00.000Z', zone)).toEqual({
      ok: true,
      value: { createdAt: CREATED, fetchCount: 2 },
    });
    expect(readLink(CREATED, LINK_MAX_FETCHES, '2026-01-20T00:00:00.000Z', zone)).toEqual({
      ok: false,
      error: { newLinkAvailableAt: '2026-01-30T12:00:00.000Z' },
    });
  });

  it('makes a new link from new_link_available_at on, whatever the read count', () => {
    expect(readLink(CREATED, LINK_MAX_FETCHES, '2026-01-30T12:00:00.000Z', zone)).toEqual({
      ok: true,
      value: { createdAt: '2026-01-30T12:00:00.000Z', fetchCount: 1 },
    });
    expect(readLink(CREATED, 3, '2026-01-30T11:59:59.999Z', zone)).toEqual({
      ok: true,
      value: { createdAt: CREATED, fetchCount: 4 },
    });
  });
});
