/** Reopening, sending and refreshing the customer information of an invoice. */

import type { InvoiceAddress, InvoiceParty } from '../../domain/invoice/types.js';
import {
  currentCustomerInformation,
  reopenInvoice,
  sendInvoice,
  updateCustomerInformation,
} from '../../engine/invoice/upkeep.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { presentInvoice } from './invoice-present.js';
import { findInvoice } from './invoices.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const emails = () =>
  z.array(zText(255).regex(EMAIL, 'must be a valid email address')).max(5, 'at most 5 addresses').optional();
const sendBody = z.object({
  recipient_emails: emails(),
  cc_recipient_emails: emails(),
  bcc_recipient_emails: emails(),
});

const payerShown = (party: InvoiceParty) => ({
  first_name: party.firstName,
  last_name: party.lastName,
  organization: party.organization ?? '',
  email: party.email,
});

const addressShown = (address: InvoiceAddress | null) => ({
  street: address?.street ?? null,
  line2: address?.line2 ?? null,
  city: address?.city ?? null,
  state: address?.state ?? null,
  zip: address?.zip ?? null,
  country: address?.country ?? null,
});

/** A `{before, after}` pair, or null when nothing would change. */
function change<T>(before: T, after: T): { before: T; after: T } | null {
  return JSON.stringify(before) === JSON.stringify(after) ? null : { before, after };
}

export const invoiceUpkeepRoutes = [
  {
    method: 'POST',
    path: '/invoices/{uid}/reopen.json',
    run: ({ tx, params }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const reopened = reopenInvoice(tx, invoice);
      if (!reopened.ok) return reopened;
      const after = reopened.value;
      return reply(200, (state) => presentInvoice(state, after));
    },
  },
  {
    method: 'POST',
    path: '/invoices/{uid}/deliveries.json',
    body: sendBody,
    run: ({ tx, params, body }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const input = decodeBody(sendBody, body ?? {});
      if (!input.ok) return input;
      const sent = sendInvoice(tx, invoice, {
        to: input.value.recipient_emails ?? [],
        cc: input.value.cc_recipient_emails ?? [],
        bcc: input.value.bcc_recipient_emails ?? [],
      });
      return sent.ok ? reply(204) : sent;
    },
  },
  {
    method: 'POST',
    path: '/invoices/{uid}/customer_information/preview.json',
    run: ({ tx, params }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const current = currentCustomerInformation(tx, invoice);
      if (!current.ok) return current;
      const next = current.value;
      return reply(200, () => ({
        changes: {
          payer: change(payerShown(invoice.payer), payerShown(next.payer)),
          shipping_address: change(addressShown(invoice.shippingAddress), addressShown(next.shippingAddress)),
          billing_address: change(addressShown(invoice.billingAddress), addressShown(next.billingAddress)),
          custom_fields: null,
        },
      }));
    },
  },
  {
    method: 'PUT',
    path: '/invoices/{uid}/customer_information.json',
    run: ({ tx, params }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const updated = updateCustomerInformation(tx, invoice);
      if (!updated.ok) return updated;
      const after = updated.value;
      return reply(200, (state) => presentInvoice(state, after));
    },
  },
] as const satisfies readonly Route[];
