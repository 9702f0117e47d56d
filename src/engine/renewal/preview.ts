/**
 * The renewal preview: the next renewal's invoice, computed by the same code as the renewal in
 * a transaction that is thrown away, at current quantities or at custom ones. Nothing changes. A period
 * an advance invoice already billed previews what its renewal still bills (`upcomingRenewal`).
 */

import type { Subscription } from '../../domain/subscription/types.js';
import { listToArray } from '../../kernel/collection.js';
import { type Dec, toMinor } from '../../kernel/money.js';
import { emptyRow, findRow, saveRow } from '../allocation/rows.js';
import { createInvoice } from '../invoice/collect.js';
import { Transaction } from '../transaction.js';
import { upcomingRenewal } from './upcoming.js';

/** A custom quantity (and price point) for one component in the preview. */
export interface PreviewQuantity {
  readonly componentId: number;
  readonly quantity: Dec;
  readonly pricePointId: number | null;
}

/** States whose subscriptions renew. */
const RENEWING = new Set(['active', 'trialing', 'past_due', 'unpaid', 'soft_failure']);

/** The renewal preview in the official shape, or undefined when the subscription has no next period. */
export function previewRenewal(
  tx: Transaction,
  subscription: Subscription,
  custom: readonly PreviewQuantity[],
) {
  if (!RENEWING.has(subscription.state) || subscription.cancelAtEndOfPeriod) return undefined;
  const scratch = new Transaction(tx.state, tx.now);
  for (const entry of custom) {
    const component = scratch.get('components', entry.componentId);
    if (component === undefined) continue;
    const row = findRow(scratch, subscription.id, component.id) ?? emptyRow(scratch, subscription, component);
    saveRow(scratch, {
      ...row,
      quantity: entry.quantity,
      pricePointId: entry.pricePointId ?? row.pricePointId,
    });
  }
  const upcoming = upcomingRenewal(scratch, subscription);
  if (upcoming === undefined) return undefined;
  const { period } = upcoming;
  const invoice = createInvoice(scratch, {
    subscription,
    role: 'renewal',
    status: 'draft',
    lines: upcoming.charges,
    coupons: upcoming.coupons,
    periodStartedAt: period.start,
    periodEndsAt: period.end,
  });
  const currency = tx.settings.currency;
  const cents = (amount: Dec) => toMinor(amount, currency);
  const lines = listToArray(invoice.lines);
  return {
    next_assessment_at: period.start,
    subtotal_in_cents: cents(invoice.totals.subtotal),
    total_tax_in_cents: cents(invoice.totals.tax),
    total_discount_in_cents: cents(invoice.totals.discount),
    total_in_cents: cents(invoice.totals.total),
    existing_balance_in_cents: cents(subscription.balance),
    total_amount_due_in_cents: cents(invoice.totals.total) + cents(subscription.balance),
    uncalculated_taxes: false,
    line_items: lines.map((line) => {
      const component = line.componentId === null ? undefined : tx.get('components', line.componentId);
      const productRow = line.productId === null ? undefined : tx.get('products', line.productId);
      return {
        transaction_type: 'charge',
        kind: line.kind,
        amount_in_cents: cents(line.subtotal),
        memo: line.description || line.title,
        discount_amount_in_cents: cents(line.discount),
        taxable_amount_in_cents: line.taxable ? cents(line.subtotal) - cents(line.discount) : 0,
        product_id: line.productId ?? subscription.productId,
        product_name: productRow?.name ?? '',
        product_handle: productRow?.handle ?? '',
        component_id: line.componentId ?? 0,
        component_handle: component?.handle ?? '',
        component_name: component?.name ?? '',
        period_range_start: line.periodRangeStart ?? '',
        period_range_end: line.periodRangeEnd ?? '',
      };
    }),
  };
}
