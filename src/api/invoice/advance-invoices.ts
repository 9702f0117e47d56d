/** Advance invoices: issue (with `force`), read, void. They answer the bare invoice. */

import { issueAdvanceInvoice, voidAdvanceInvoice } from '../../engine/invoice/advance.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zBool, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { presentInvoice } from './invoice-present.js';

const issueBody = z.object({ force: zBool().optional() });
const voidBody = z.object({ void: z.object({ reason: zText(2000).min(1, "can't be blank") }) });

export const advanceInvoiceRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/advance_invoice/issue.json',
    body: issueBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(issueBody, body);
      if (!input.ok) return input;
      const issued = issueAdvanceInvoice(tx, subscription, input.value.force ?? false, gateway);
      if (!issued.ok) return issued;
      return reply(201, (state) => presentInvoice(state, issued.value));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/advance_invoice.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const invoice =
        subscription.advanceInvoiceId === null
          ? undefined
          : tx.get('invoices', subscription.advanceInvoiceId);
      if (invoice === undefined || invoice.status === 'voided') return err(missing('Advance invoice'));
      return reply(200, (state) => presentInvoice(state, invoice));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/advance_invoice/void.json',
    body: voidBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(voidBody, body);
      if (!input.ok) return input;
      const voided = voidAdvanceInvoice(tx, subscription, input.value.void.reason);
      if (!voided.ok) return voided;
      return reply(200, (state) => presentInvoice(state, voided.value));
    },
  },
] as const satisfies readonly Route[];
