import { describe, expect, it } from 'vitest';
import {
  emailOutbox,
  managementLinkFor,
  verifyManagementLink,
  verifyPortalLink,
} from '../../../src/index.js';
import { errorsOf, get, num, type Site, show, site, str } from '../../helpers/api.js';

const SECRET = 'test-portal-secret';
const enable = (id: number, query = '') => `/portal/customers/${id}/enable.json${query}`;
const linkPath = (id: number) => `/portal/customers/${id}/management_link.json`;
const invitePath = (id: number) => `/portal/customers/${id}/invitations/invite.json`;
const revokePath = (id: number) => `/portal/customers/${id}/invitations/revoke.json`;

/** A site with one customer whose portal is enabled (without invitation). */
function enabled(config = {}): { s: Site; id: number } {
  const s = site({ portalSecret: SECRET, ...config });
  const id = s.customer({ email: 'ada@example.com' });
  s.ok('POST', enable(id), undefined, 200);
  return { s, id };
}

describe('billing portal: enable', () => {
  it('enables without an invitation when auto_invite is 0 or absent, and answers {customer}', () => {
    const s = site();
    const a = s.customer();
    const b = s.customer();
    const body = s.ok('POST', enable(a), undefined, 200);
    expect(get(body, 'customer')).toMatchObject({
      id: a,
      portal_customer_created_at: '2026-01-15T12:00:00Z',
      portal_invite_last_sent_at: null,
      portal_invite_last_accepted_at: null,
    });
    s.ok('POST', enable(b, '?auto_invite=0'), undefined, 200);
    expect(get(s.ok('GET', `/customers/${b}.json`), 'customer', 'portal_customer_created_at')).toBe(
      '2026-01-15T12:00:00Z',
    );
    expect(emailOutbox(s.state)).toEqual([]);
  });

  it('with auto_invite=1 records an invitation email and sets portal_invite_last_sent_at', () => {
    const s = site({ name: 'Acme', timeZone: 'America/New_York' });
    const id = s.customer({ email: 'grace@example.com' });
    const body = s.ok('POST', enable(id, '?auto_invite=1'), undefined, 200);
    expect(get(body, 'customer', 'portal_invite_last_sent_at')).toBe('2026-01-15T07:00:00-05:00');
    expect(get(body, 'customer', 'portal_customer_created_at')).toBe('2026-01-15T07:00:00-05:00');
    expect(emailOutbox(s.state)).toEqual([
      {
        id: 1,
        kind: 'portal_invitation',
        to: 'grace@example.com',
        customerId: id,
        subscriptionId: null,
        at: '2026-01-15T12:00:00.000Z',
        subject: 'You are invited to manage your Acme account',
      },
    ]);
    // The query may also come as a query object.
    const other = s.customer();
    expect(s.request('POST', enable(other), undefined, { query: { auto_invite: '1' } }).status).toBe(200);
    expect(emailOutbox(s.state)).toHaveLength(2);
    expect(emailOutbox(s.state, 1).map((email) => email.customerId)).toEqual([other]);
  });

  it('is idempotent: enabling again keeps portal_customer_created_at', () => {
    const { s, id } = enabled();
    s.at('2026-01-20T00:00:00Z');
    const body = s.ok('POST', enable(id), undefined, 200);
    expect(get(body, 'customer', 'portal_customer_created_at')).toBe('2026-01-15T12:00:00Z');
  });

  it('refuses an unknown customer (404) and an auto_invite other than 0 or 1 (422)', () => {
    const s = site();
    const id = s.customer();
    expect(errorsOf(s.fail('POST', enable(99), undefined, 404))).toMatch(/Customer not found/);
    expect(errorsOf(s.fail('POST', enable(id, '?auto_invite=2'), undefined, 422))).toMatch(/auto_invite/);
    s.fail('GET', enable(id), undefined, 405);
  });
});

describe('billing portal: management link', () => {
  it('answers the bare link; the URL verifies under the site secret for 65 days', () => {
    const { s, id } = enabled();
    const body = s.ok('GET', linkPath(id));
    expect(body).toEqual({
      url: expect.stringMatching(
        new RegExp(`^https://www\\.billingportal\\.com/manage/${id}/1768478400/[0-9a-f]{64}$`),
      ),
      fetch_count: 1,
      created_at: '2026-01-15T12:00:00Z',
      new_link_available_at: '2026-01-30T12:00:00Z',
      expires_at: '2026-03-21T12:00:00Z',
      last_invite_sent_at: null,
    });
    const url = str(body, 'url');
    expect(verifyManagementLink(url, SECRET, '2026-03-21T11:59:59Z').ok).toBe(true);
    expect(verifyManagementLink(url, SECRET, '2026-03-21T12:00:00Z')).toEqual({
      ok: false,
      error: 'expired',
    });
    expect(verifyManagementLink(url, 'another-secret', '2026-02-01T00:00:00Z')).toEqual({
      ok: false,
      error: 'bad_signature',
    });
    expect(verifyPortalLink(s.state, url, '2026-02-01T00:00:00Z')).toMatchObject({
      ok: true,
      value: { customerId: id },
    });
    expect(verifyPortalLink(s.state, url.replace(`/${id}/`, `/${id + 1}/`), '2026-02-01T00:00:00Z')).toEqual({
      ok: false,
      error: 'bad_signature',
    });
  });

  it('reports times in the site offset and the last invitation', () => {
    // The official example's instants; time never runs backwards, so the site starts then.
    const s = site({ timeZone: 'America/New_York', portalSecret: SECRET }, '2018-02-02T18:34:29Z');
    const id = s.customer();
    s.ok('POST', enable(id, '?auto_invite=1'), undefined, 200);
    expect(s.ok('GET', linkPath(id))).toMatchObject({
      created_at: '2018-02-02T13:34:29-05:00',
      new_link_available_at: '2018-02-17T13:34:29-05:00',
      expires_at: '2018-04-08T13:34:29-04:00',
      last_invite_sent_at: '2018-02-02T13:34:29-05:00',
    });
  });

  it('returns the same link for 15 days, counting reads; the 16th read is a 429 in the official shape', () => {
    const { s, id } = enabled();
    const first = str(s.ok('GET', linkPath(id)), 'url');
    for (let read = 2; read <= 15; read += 1) {
      s.at(`2026-01-${String(15 + Math.floor(read / 2)).padStart(2, '0')}T12:00:00Z`);
      const body = s.ok('GET', linkPath(id));
      expect(num(body, 'fetch_count')).toBe(read);
      expect(str(body, 'url')).toBe(first);
      expect(get(body, 'created_at')).toBe('2026-01-15T12:00:00Z');
    }
    s.at('2026-01-30T11:59:59Z');
    const refused = s.fail('GET', linkPath(id), undefined, 429);
    expect(refused).toEqual({
      errors: {
        error: expect.stringMatching(/15 times.*2026-01-30T12:00:00Z/),
        new_link_available_at: '2026-01-30T12:00:00Z',
      },
    });
    // From new_link_available_at on, a new link is made and counted afresh.
    s.at('2026-01-30T12:00:00Z');
    const renewed = s.ok('GET', linkPath(id));
    expect(renewed).toMatchObject({
      fetch_count: 1,
      created_at: '2026-01-30T12:00:00Z',
      new_link_available_at: '2026-02-14T12:00:00Z',
      expires_at: '2026-04-05T12:00:00Z',
    });
    expect(str(renewed, 'url')).not.toBe(first);
    // The earlier link stays valid until its own 65 days are over.
    expect(verifyPortalLink(s.state, first, '2026-03-21T11:59:59Z').ok).toBe(true);
    expect(verifyPortalLink(s.state, first, '2026-03-21T12:00:00Z')).toEqual({ ok: false, error: 'expired' });
  });

  it('makes a new link after 15 days even when the old one was read less than 15 times', () => {
    const { s, id } = enabled();
    const first = str(s.ok('GET', linkPath(id)), 'url');
    s.at('2026-02-20T00:00:00Z');
    const body = s.ok('GET', linkPath(id));
    expect(str(body, 'url')).not.toBe(first);
    expect(num(body, 'fetch_count')).toBe(1);
  });

  it('refuses a customer whose portal is not enabled (422) and an unknown customer (404)', () => {
    const s = site();
    const id = s.customer();
    expect(errorsOf(s.fail('GET', linkPath(id), undefined, 422))).toMatch(/not enabled/);
    s.fail('GET', linkPath(99), undefined, 404);
  });
});

describe('billing portal: invitations', () => {
  it('resends an invitation: records an email and answers the bare ResentInvitation', () => {
    const { s, id } = enabled({ timeZone: 'Europe/Paris' });
    s.customer(); // never invited
    s.at('2026-01-16T09:00:00Z');
    const body = s.ok('POST', invitePath(id), undefined, 200);
    expect(body).toEqual({
      last_sent_at: '2026-01-16T10:00:00+01:00',
      last_accepted_at: null,
      last_invite_sent_at: '2026-01-16T10:00:00+01:00',
      last_invite_accepted_at: null,
      send_invite_link_text: 'Resend invitation',
      uninvited_count: 1,
    });
    expect(emailOutbox(s.state).map((email) => [email.kind, email.to, email.customerId])).toEqual([
      ['portal_invitation', 'ada@example.com', id],
    ]);
    expect(get(s.ok('GET', `/customers/${id}.json`), 'customer', 'portal_invite_last_sent_at')).toBe(
      '2026-01-16T10:00:00+01:00',
    );
  });

  it('allows five invitations in any 30 minutes (auto_invite counts); the sixth is a 422 saying when', () => {
    const s = site({ portalSecret: SECRET });
    const id = s.customer();
    s.ok('POST', enable(id, '?auto_invite=1'), undefined, 200);
    for (let i = 1; i <= 4; i += 1)
      s.at(`2026-01-15T12:0${i}:00Z`).ok('POST', invitePath(id), undefined, 200);
    s.at('2026-01-15T12:10:00Z');
    const refused = s.fail('POST', invitePath(id), undefined, 422);
    expect(errorsOf(refused)).toMatch(/5 times within 30 minutes.*2026-01-15T12:30:00Z/);
    s.fail('POST', enable(id, '?auto_invite=1'), undefined, 422);
    expect(emailOutbox(s.state)).toHaveLength(5);
    s.at('2026-01-15T12:30:00Z').ok('POST', invitePath(id), undefined, 200);
    expect(emailOutbox(s.state)).toHaveLength(6);
  });

  it('refuses an invitation when the portal is disabled (422) or the customer unknown (404)', () => {
    const s = site();
    const id = s.customer();
    expect(errorsOf(s.fail('POST', invitePath(id), undefined, 422))).toMatch(/not enabled/);
    s.fail('POST', invitePath(99), undefined, 404);
  });
});

describe('billing portal: revoke', () => {
  it('disables the portal, answers {message}, and every earlier link stops verifying', () => {
    const { s, id } = enabled();
    s.ok('POST', invitePath(id), undefined, 200);
    const url = str(s.ok('GET', linkPath(id)), 'url');
    expect(verifyPortalLink(s.state, url, '2026-01-16T00:00:00Z').ok).toBe(true);
    s.at('2026-01-16T00:00:00Z');
    const body = s.ok('DELETE', revokePath(id));
    expect(body).toEqual({
      message: 'Invitation revoked',
      last_sent_at: 'Not Invited',
      last_accepted_at: 'Invite Revoked',
      uninvited_count: 1,
    });
    expect(get(s.ok('GET', `/customers/${id}.json`), 'customer')).toMatchObject({
      portal_customer_created_at: null,
      portal_invite_last_sent_at: null,
    });
    expect(verifyPortalLink(s.state, url, '2026-01-16T00:00:01Z')).toEqual({ ok: false, error: 'revoked' });
    // The signature itself is still genuine: only the state knows about the revocation.
    expect(verifyManagementLink(url, SECRET, '2026-01-16T00:00:01Z').ok).toBe(true);
    s.fail('GET', linkPath(id), undefined, 422);
    s.fail('POST', invitePath(id), undefined, 422);
    expect(errorsOf(s.fail('DELETE', revokePath(id), undefined, 422))).toMatch(/already disabled/);
    s.fail('DELETE', revokePath(99), undefined, 404);
  });

  it('enabling again makes a new link; the old one stays revoked', () => {
    const { s, id } = enabled();
    const old = str(s.ok('GET', linkPath(id)), 'url');
    s.at('2026-01-16T00:00:00Z').ok('DELETE', revokePath(id));
    s.at('2026-01-17T00:00:00Z').ok('POST', enable(id), undefined, 200);
    const body = s.ok('GET', linkPath(id));
    expect(body).toMatchObject({ fetch_count: 1, created_at: '2026-01-17T00:00:00Z' });
    expect(verifyPortalLink(s.state, str(body, 'url'), '2026-01-18T00:00:00Z').ok).toBe(true);
    expect(verifyPortalLink(s.state, old, '2026-01-18T00:00:00Z')).toEqual({ ok: false, error: 'revoked' });
  });

  it('revoking and enabling again within one second voids the old link; the new link is dated after it', () => {
    // The issue 21 rule: a revocation voids every earlier link, even one made in the same second.
    const { s, id } = enabled();
    s.at('2026-01-16T00:00:00.100Z');
    const old = str(s.ok('GET', linkPath(id)), 'url');
    s.at('2026-01-16T00:00:00.400Z').ok('DELETE', revokePath(id));
    s.at('2026-01-16T00:00:00.700Z').ok('POST', enable(id), undefined, 200);
    const body = s.ok('GET', linkPath(id));
    expect(body).toMatchObject({ fetch_count: 1, created_at: '2026-01-16T00:00:01Z' });
    const fresh = str(body, 'url');
    expect(fresh).not.toBe(old);
    expect(verifyPortalLink(s.state, old, '2026-01-16T00:00:00.800Z')).toEqual({
      ok: false,
      error: 'revoked',
    });
    expect(verifyPortalLink(s.state, fresh, '2026-01-16T00:00:00.800Z').ok).toBe(true);
  });

  it('revoking and enabling again at one frozen instant still voids the old link', () => {
    const { s, id } = enabled();
    const old = str(s.ok('GET', linkPath(id)), 'url');
    s.ok('DELETE', revokePath(id));
    s.ok('POST', enable(id), undefined, 200);
    const fresh = str(s.ok('GET', linkPath(id)), 'url');
    expect(verifyPortalLink(s.state, old, '2026-01-15T12:00:00Z')).toEqual({ ok: false, error: 'revoked' });
    expect(verifyPortalLink(s.state, fresh, '2026-01-15T12:00:00Z').ok).toBe(true);
  });

  it('keeps the state as plain JSON', () => {
    const { s, id } = enabled();
    s.ok('POST', invitePath(id), undefined, 200);
    s.ok('GET', linkPath(id));
    const copy = JSON.parse(JSON.stringify(s.state));
    expect(copy, show(copy)).toEqual(s.state);
  });
});

describe('billing portal: a site without a portal secret (CONTRACT 9)', () => {
  it('issues no management link: a 422 saying why and how to set one, nothing changed', () => {
    const s = site();
    const id = s.customer();
    s.ok('POST', enable(id), undefined, 200);
    const before = s.state;
    const refused = s.fail('GET', linkPath(id), undefined, 422);
    expect(errorsOf(refused)).toMatch(/no portal secret.*set portalSecret in the site configuration/);
    expect(s.state).toBe(before);
  });

  it('verifies no link, not even one signed with the old public default secret', () => {
    const s = site();
    const id = s.customer();
    s.ok('POST', enable(id), undefined, 200);
    const forged = managementLinkFor(id, '2026-01-15T12:00:00Z', 'billing-core-portal-acme').url;
    expect(verifyPortalLink(s.state, forged, '2026-01-16T00:00:00Z')).toEqual({
      ok: false,
      error: 'bad_signature',
    });
  });
});
