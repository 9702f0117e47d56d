/**
 * The signup preview (`POST /subscriptions/preview.json`): the signup runs, by the same code as a real
 * one, in a transaction that is thrown away, and its first invoice and next renewal are presented as
 * billing manifests. Nothing is kept and no gateway is asked: every payment counts as made, and a body
 * without a card or customer is previewed as a remittance signup of a placeholder customer.
 */

import type { Invoice, InvoiceLine } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { applyChanges } from '../../engine/changes.js';
import { listed } from '../../engine/list-index.js';
import { previewRenewal } from '../../engine/renewal/preview.js';
import { Transaction } from '../../engine/transaction.js';
import { listToArray, nextId, tableGet } from '../../kernel/collection.js';
import { type Dec, toMinor } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import { type Route, reply } from '../route.js';
import { subscriptionRoutes } from './subscriptions.js';

const [signupRoute] = subscriptionRoutes;

/** A preview moves no money: every payment of the scratch signup counts as made. */
const approveAll: PaymentGateway = () => ({ success: true });

const PLACEHOLDER_CUSTOMER = { first_name: 'Preview', last_name: 'Customer', email: 'preview@example.com' };

/** The body with what a preview may leave out filled in: a customer, and remittance when no card is given. */
function previewBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const fields: unknown = Reflect.get(body, 'subscription');
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return body;
  const filled: Record<string, unknown> = { ...(fields as Record<string, unknown>) };
  if (filled['customer_id'] === undefined && filled['customer_reference'] === undefined)
    filled['customer_attributes'] ??= PLACEHOLDER_CUSTOMER;
  const paysByCard =
    filled['payment_profile_id'] !== undefined ||
    filled['credit_card_attributes'] !== undefined ||
    filled['bank_account_attributes'] !== undefined;
  if (!paysByCard) filled['payment_collection_method'] = 'remittance';
  return { ...body, subscription: filled };
}

const manifestKind = (line: Pick<InvoiceLine, 'kind' | 'componentId'>) =>
  line.componentId !== null
    ? 'component'
    : line.kind === 'initial' || line.kind === 'trial'
      ? line.kind
      : 'baseline';

/** The signup invoice as the official `current_billing_manifest`. */
function currentManifest(invoice: Invoice, currency: string, zone: string) {
  const cents = (amount: Dec) => toMinor(amount, currency);
  return {
    line_items: listToArray(invoice.lines).map((line) => ({
      transaction_type: 'charge',
      kind: manifestKind(line),
      amount_in_cents: cents(line.subtotal),
      memo: line.description || line.title,
      discount_amount_in_cents: cents(line.discount),
      taxable_amount_in_cents: line.taxable ? cents(line.subtotal) - cents(line.discount) : 0,
      product_id: line.productId ?? 0,
      component_id: line.componentId ?? 0,
      period_range_start: line.periodRangeStart ?? '',
      period_range_end: line.periodRangeEnd ?? '',
    })),
    total_in_cents: cents(invoice.totals.total),
    total_discount_in_cents: cents(invoice.totals.discount),
    total_tax_in_cents: cents(invoice.totals.tax),
    subtotal_in_cents: cents(invoice.totals.subtotal),
    start_date: invoice.periodStartedAt === null ? null : calendarDateOf(invoice.periodStartedAt, zone),
    end_date: invoice.periodEndsAt === null ? null : calendarDateOf(invoice.periodEndsAt, zone),
    period_type: 'advance',
    existing_balance_in_cents: 0,
  };
}

export const subscriptionPreviewRoute = {
  method: 'POST',
  path: '/subscriptions/preview.json',
  body: signupRoute.body,
  run: ({ tx, params, query, body }) => {
    const scratch = new Transaction(tx.state, tx.now);
    const id = nextId(tx.state.tables.subscriptions);
    const signedUp = signupRoute.run({
      tx: scratch,
      params,
      query,
      body: previewBody(body),
      gateway: approveAll,
    });
    if (!signedUp.ok) return signedUp;
    const after = applyChanges(tx.state, scratch.changes());
    const subscription = tableGet(after.tables.subscriptions, id);
    const invoiceId = listed(after.listIndexes, 'subscriptionInvoices', id)[0];
    const invoice = invoiceId === undefined ? undefined : tableGet(after.tables.invoices, invoiceId);
    const { currency, timeZone } = tx.settings;
    const next =
      subscription === undefined
        ? undefined
        : previewRenewal(new Transaction(after, tx.now), subscription, []);
    return reply(200, () => ({
      subscription_preview: {
        current_billing_manifest:
          invoice === undefined ? emptyManifest() : currentManifest(invoice, currency, timeZone),
        next_billing_manifest:
          next === undefined
            ? emptyManifest()
            : {
                line_items: next.line_items.map((line) => ({
                  ...line,
                  kind: manifestKind({ kind: line.kind, componentId: line.component_id || null }),
                })),
                total_in_cents: next.total_in_cents,
                total_discount_in_cents: next.total_discount_in_cents,
                total_tax_in_cents: next.total_tax_in_cents,
                subtotal_in_cents: next.subtotal_in_cents,
                start_date: calendarDateOf(next.next_assessment_at, timeZone),
                end_date: null,
                period_type: 'advance',
                existing_balance_in_cents: 0,
              },
      },
    }));
  },
} as const satisfies Route;

/** A manifest of nothing: a signup that bills nothing now, or a subscription with no next renewal. */
function emptyManifest(): ReturnType<typeof currentManifest> {
  return {
    line_items: [],
    total_in_cents: 0,
    total_discount_in_cents: 0,
    total_tax_in_cents: 0,
    subtotal_in_cents: 0,
    start_date: null,
    end_date: null,
    period_type: 'advance',
    existing_balance_in_cents: 0,
  };
}
