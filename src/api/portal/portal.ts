/**
 * The billing portal: enable a customer's access (optionally with an
 * invitation email), read the signed management link, resend the invitation, revoke access.
 */

import type { Customer } from '../../domain/customer/types.js';
import { admit, FIVE_PER_THIRTY_MINUTES } from '../../domain/email/rate-limit.js';
import type { DomainError } from '../../domain/errors.js';
import { linksValidAfterRevocation, managementLinkFor, readLink } from '../../domain/portal/link.js';
import type { CustomerPortal } from '../../domain/portal/types.js';
import { recordEmail } from '../../engine/email/emails.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { findRef, missing, stamp } from '../common.js';
import { presentCustomer } from '../customer/customer-present.js';
import { type Route, reply } from '../route.js';
import {
  presentManagementLink,
  presentResentInvitation,
  presentRevokedInvitation,
  tooManyLinkRequests,
} from './portal-present.js';

const refused = (message: string): DomainError => ({ code: 'portal_refused', status: 422, message });
const NOT_ENABLED = 'The billing portal is not enabled for this customer.';
/** Why a site without a secret has no portal link: the core never invents one or takes a public one. */
export const NO_PORTAL_SECRET =
  'This site has no portal secret, so it issues no billing portal link: set portalSecret in the site configuration (billing-core serve generates one for a new data directory, or takes --portal-secret).';

/** The customer's portal row, if access was ever enabled and used. */
function portalOf(tx: Transaction, customerId: number): CustomerPortal | undefined {
  const id = indexGet(tx.state.indexes.portalCustomers, String(customerId));
  return id === undefined ? undefined : tx.get('portals', id);
}

type PortalFields = Partial<Omit<CustomerPortal, 'id' | 'customerId'>>;

/** Writes a customer's portal row (a new one, with its id, when there is none yet). */
function putPortal(tx: Transaction, customerId: number, fields: PortalFields): void {
  const current = portalOf(tx, customerId) ?? {
    id: tx.nextId('portals'),
    customerId,
    linkCreatedAt: null,
    linkFetchCount: 0,
    recentInvitations: [],
  };
  tx.put('portals', { ...current, ...fields });
}

/**
 * Sends (records) a portal invitation: at most five in any 30 minutes per customer. Returns the customer
 * with `portal_invite_last_sent_at` set; the caller writes it.
 */
function invite(tx: Transaction, customer: Customer): Result<Customer, DomainError> {
  const admitted = admit(portalOf(tx, customer.id)?.recentInvitations ?? [], tx.now, FIVE_PER_THIRTY_MINUTES);
  if (!admitted.ok) {
    const at = stamp(tx.state, admitted.error);
    return err(
      refused(
        `Portal invitations were sent 5 times within 30 minutes for this customer; resubmit at or after ${at}.`,
      ),
    );
  }
  putPortal(tx, customer.id, { recentInvitations: admitted.value });
  recordEmail(tx, {
    kind: 'portal_invitation',
    to: customer.email,
    customerId: customer.id,
    subject: `You are invited to manage your ${tx.settings.name} account`,
  });
  return ok({ ...customer, portalInviteLastSentAt: tx.now, updatedAt: tx.now });
}

/** `auto_invite`: 1 (or true) invites, 0 (or false) or absent does not. */
function autoInvite(value: string | undefined): Result<boolean, DomainError> {
  if (value === undefined || value === '' || value === '0' || value === 'false') return ok(false);
  if (value === '1' || value === 'true') return ok(true);
  return err({ ...refused('auto_invite: must be 0 or 1.'), field: 'auto_invite' });
}

type Found = Result<Customer, DomainError>;

function findCustomer(tx: Transaction, params: Readonly<Record<string, string>>): Found {
  const customer = findRef(tx, 'customers', params['customer_id'] ?? '');
  return customer === undefined ? err(missing('Customer')) : ok(customer);
}

function enabledCustomer(tx: Transaction, params: Readonly<Record<string, string>>): Found {
  const found = findCustomer(tx, params);
  if (found.ok && found.value.portalCustomerCreatedAt === null) return err(refused(NOT_ENABLED));
  return found;
}

export const portalRoutes = [
  {
    method: 'POST',
    path: '/portal/customers/{customer_id}/enable.json',
    query: ['auto_invite'],
    run: ({ tx, params, query }) => {
      const found = findCustomer(tx, params);
      if (!found.ok) return found;
      const inviting = autoInvite(query.get('auto_invite'));
      if (!inviting.ok) return inviting;
      let customer = found.value;
      if (customer.portalCustomerCreatedAt === null)
        customer = { ...customer, portalCustomerCreatedAt: tx.now, updatedAt: tx.now };
      if (inviting.value) {
        const invited = invite(tx, customer);
        if (!invited.ok) return invited;
        customer = invited.value;
      }
      if (customer !== found.value) tx.put('customers', customer);
      const answered = customer;
      return reply(200, (state) => ({ customer: presentCustomer(state, answered) }));
    },
  },
  {
    method: 'GET',
    path: '/portal/customers/{customer_id}/management_link.json',
    run: ({ tx, params }) => {
      const found = enabledCustomer(tx, params);
      if (!found.ok) return found;
      const secret = tx.settings.portalSecret;
      if (secret === null) return err(refused(NO_PORTAL_SECRET));
      const customer = found.value;
      const portal = portalOf(tx, customer.id);
      const read = readLink(
        portal?.linkCreatedAt ?? null,
        portal?.linkFetchCount ?? 0,
        tx.now,
        tx.settings.timeZone,
        portal?.linksValidFrom ?? null,
      );
      if (!read.ok) return err(tooManyLinkRequests(tx.state, read.error.newLinkAvailableAt));
      putPortal(tx, customer.id, {
        linkCreatedAt: read.value.createdAt,
        linkFetchCount: read.value.fetchCount,
      });
      const link = managementLinkFor(customer.id, read.value.createdAt, secret, tx.settings.timeZone);
      return reply(200, (state) => presentManagementLink(state, link, read.value.fetchCount, customer));
    },
  },
  {
    method: 'POST',
    path: '/portal/customers/{customer_id}/invitations/invite.json',
    run: ({ tx, params }) => {
      const found = enabledCustomer(tx, params);
      if (!found.ok) return found;
      const invited = invite(tx, found.value);
      if (!invited.ok) return invited;
      const customer = tx.put('customers', invited.value);
      return reply(200, (state) => presentResentInvitation(state, customer));
    },
  },
  {
    method: 'DELETE',
    path: '/portal/customers/{customer_id}/invitations/revoke.json',
    run: ({ tx, params }) => {
      const found = findCustomer(tx, params);
      if (!found.ok) return found;
      if (found.value.portalCustomerCreatedAt === null)
        return err(refused('The billing portal is already disabled for this customer.'));
      tx.put('customers', {
        ...found.value,
        portalCustomerCreatedAt: null,
        portalInviteLastSentAt: null,
        portalInviteLastAcceptedAt: null,
        updatedAt: tx.now,
      });
      // The invitation memory stays, so revoking and enabling again does not lift the invitation limit.
      // Every link dated up to this second is void from now on, even if access is enabled again at once.
      putPortal(tx, found.value.id, {
        linkCreatedAt: null,
        linkFetchCount: 0,
        linksValidFrom: linksValidAfterRevocation(tx.now),
      });
      return reply(200, (state) => presentRevokedInvitation(state));
    },
  },
] as const satisfies readonly Route[];
