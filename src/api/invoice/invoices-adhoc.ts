/**
 * Ad hoc invoices: create for a subscription, update a draft (only what is sent changes),
 * delete a draft. Errors answer `{errors: {field: [...]}}`.
 */

import { couponAppliesTo } from '../../domain/coupon/rules.js';
import type { Invoice, InvoiceAddress } from '../../domain/invoice/types.js';
import {
  createInvoice,
  discountsAsDrafts,
  linesAsDrafts,
  repriceInvoice,
} from '../../engine/invoice/build.js';
import {
  type ChargeLine,
  type DiscountDraft,
  draftDiscounts,
  draftLines,
  type LineDraft,
} from '../../engine/invoice/drafts.js';
import { recordInvoiceIssued } from '../../engine/invoice/issued-event.js';
import type { Transaction } from '../../engine/transaction.js';
import { err } from '../../kernel/result.js';
import { addDays, calendarDateOf } from '../../kernel/time.js';
import { missing } from '../common.js';
import { fieldErrors } from '../errors.js';
import { type Route, type RouteResult, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { priceComponentQuantity, resolveCoupon, resolveLine } from './invoice-items.js';
import { presentInvoice } from './invoice-present.js';
import {
  type AddressInput,
  addError,
  decodeInvoiceRequest,
  type FieldErrors,
  type InvoiceRequest,
  invoiceRequestBody,
} from './invoice-request.js';
import { findInvoice } from './invoices.js';

const addressOf = (input: AddressInput | undefined): InvoiceAddress | undefined =>
  input === undefined
    ? undefined
    : {
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone,
        street: input.street,
        line2: input.line2,
        city: input.city,
        state: input.state,
        zip: input.zip,
        country: input.country,
      };

function checkIssueDate(tx: Transaction, errors: FieldErrors, issueDate: string | undefined): void {
  if (issueDate !== undefined && issueDate > calendarDateOf(tx.now, tx.settings.timeZone))
    addError(errors, 'issue_date', 'must be today or earlier');
}

const enveloped = (invoice: Invoice) => reply(201, (state) => ({ invoice: presentInvoice(state, invoice) }));

function resolveCoupons(
  tx: Transaction,
  errors: FieldErrors,
  request: InvoiceRequest,
  charges: readonly ChargeLine[],
) {
  return (request.coupons ?? []).flatMap((coupon, index) => {
    const resolved = resolveCoupon(tx, errors, index, coupon, charges);
    return resolved === undefined ? [] : [resolved];
  });
}

function createAdHocInvoice(tx: Transaction, subscriptionRef: string, body: unknown) {
  const subscription = findSubscription(tx, subscriptionRef);
  if (subscription === undefined) return err(missing('Subscription'));
  const decoded = decodeInvoiceRequest(body);
  if (!decoded.ok) return err(fieldErrors(decoded.error));
  const request = decoded.value;
  const errors: FieldErrors = {};
  checkIssueDate(tx, errors, request.issueDate);
  const requested = request.lineItems ?? [];
  const lines: ChargeLine[] = [];
  for (let index = 0; index < requested.length; index += 1) {
    const line = requested[index]!;
    if (line.uid !== undefined || line.destroy)
      addError(errors, `line_items[${index}].uid`, 'can only be given when updating an invoice');
    const resolved = resolveLine(tx, errors, index, line);
    if (resolved !== undefined) lines.push(resolved);
  }
  if (requested.length === 0) addError(errors, 'line_items', "can't be blank");
  const coupons = resolveCoupons(tx, errors, request, lines);
  if (Object.keys(errors).length > 0) return err(fieldErrors(errors));
  const issueDate = request.issueDate ?? calendarDateOf(tx.now, tx.settings.timeZone);
  const status = request.status ?? 'open';
  const invoice = createInvoice(tx, {
    subscription,
    role: 'adhoc',
    status,
    lines,
    coupons,
    issueDate,
    // Without net terms the due date is the creation date.
    dueDate:
      request.netTerms === undefined
        ? calendarDateOf(tx.now, tx.settings.timeZone)
        : addDays(issueDate, request.netTerms),
    netTerms: request.netTerms ?? 0,
    ...(request.memo === undefined ? {} : { memo: request.memo }),
    ...(request.paymentInstructions === undefined
      ? {}
      : { paymentInstructions: request.paymentInstructions }),
    ...(request.sellerAddress === undefined
      ? {}
      : { sellerAddress: addressOf(request.sellerAddress) ?? null }),
    ...(request.billingAddress === undefined
      ? {}
      : { billingAddress: addressOf(request.billingAddress) ?? null }),
    ...(request.shippingAddress === undefined
      ? {}
      : { shippingAddress: addressOf(request.shippingAddress) ?? null }),
  });
  if (status === 'open') recordInvoiceIssued(tx, invoice);
  return enveloped(invoice);
}

/** The draft ad hoc invoice of a subscription, or a 404 (no subscription or invoice) or a 422 (no draft). */
function editableInvoice(
  tx: Transaction,
  subscriptionRef: string,
  uid: string,
): { invoice: Invoice } | { error: RouteResult<never> } {
  const subscription = findSubscription(tx, subscriptionRef);
  if (subscription === undefined) return { error: err(missing('Subscription')) };
  const invoice = findInvoice(tx, uid);
  if (invoice === undefined || invoice.subscriptionId !== subscription.id)
    return { error: err(missing('Invoice')) };
  if (invoice.role !== 'adhoc' || invoice.status !== 'draft') {
    return {
      error: err({
        code: 'not_draft',
        status: 422,
        message: 'Only draft ad hoc invoices can be updated or deleted; issued invoices are voided instead.',
        field: 'base',
      }),
    };
  }
  return { invoice };
}

function updateLines(tx: Transaction, errors: FieldErrors, invoice: Invoice, request: InvoiceRequest) {
  const drafts = linesAsDrafts(invoice);
  const byUid = new Map(drafts.map((draft, index) => [draft.uid, index]));
  const removed = new Set<number>();
  const replaced = new Map<number, LineDraft>();
  const added: ChargeLine[] = [];
  (request.lineItems ?? []).forEach((line, index) => {
    if (line.uid === undefined) {
      const resolved = resolveLine(tx, errors, index, line);
      if (resolved) added.push(resolved);
      return;
    }
    const position = byUid.get(line.uid);
    const existing = position === undefined ? undefined : drafts[position];
    if (position === undefined || existing === undefined) {
      addError(errors, `line_items[${index}].uid`, 'does not match a line item of this invoice');
      return;
    }
    if (line.destroy) {
      removed.add(position);
      return;
    }
    replaced.set(position, {
      ...existing,
      ...(line.title === undefined ? {} : { title: line.title }),
      ...(line.description === undefined ? {} : { description: line.description }),
      ...(line.quantity === undefined
        ? {}
        : repricedQuantity(tx, errors, index, existing, line.quantity, line.unitPrice !== undefined)),
      ...(line.unitPrice === undefined ? {} : { unitPrice: line.unitPrice, pricedAmount: null }),
      ...(line.taxable === undefined || !existing.customItem ? {} : { taxable: line.taxable }),
      ...(line.periodRangeStart === undefined ? {} : { periodRangeStart: line.periodRangeStart }),
      ...(line.periodRangeEnd === undefined ? {} : { periodRangeEnd: line.periodRangeEnd }),
      ...(line.taxCode === undefined ? {} : { taxCode: line.taxCode }),
    });
  });
  const kept = drafts.flatMap((draft, index) => (removed.has(index) ? [] : [replaced.get(index) ?? draft]));
  return { kept, added };
}

function updateAdHocInvoice(tx: Transaction, subscriptionRef: string, uid: string, body: unknown) {
  const found = editableInvoice(tx, subscriptionRef, uid);
  if ('error' in found) return found.error;
  const invoice = found.invoice;
  const decoded = decodeInvoiceRequest(body);
  if (!decoded.ok) return err(fieldErrors(decoded.error));
  const request = decoded.value;
  const errors: FieldErrors = {};
  checkIssueDate(tx, errors, request.issueDate);
  const { kept, added } = updateLines(tx, errors, invoice, request);
  const addedDrafts = draftLines(tx, added);
  const lines = [...kept, ...addedDrafts];
  const couponLines: ChargeLine[] = lines.map((line) => ({
    title: line.title,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    taxable: line.taxable,
    kind: line.kind,
    ...(line.productId === null ? {} : { productId: line.productId }),
    ...(line.componentId === null ? {} : { componentId: line.componentId }),
  }));
  const discounts =
    request.coupons === undefined
      ? withCurrentEligibility(tx, discountsAsDrafts(invoice), lines)
      : draftDiscounts(
          tx,
          resolveCoupons(tx, errors, request, couponLines),
          lines,
          discountsAsDrafts(invoice),
        );
  if (Object.keys(errors).length > 0) return err(fieldErrors(errors));
  const issueDate = request.issueDate ?? invoice.issueDate;
  const netTerms = request.netTerms ?? invoice.netTerms;
  const dueDate =
    request.issueDate !== undefined || request.netTerms !== undefined
      ? addDays(issueDate, netTerms)
      : invoice.dueDate;
  const readdressed: Invoice = {
    ...invoice,
    issueDate,
    netTerms,
    dueDate,
    memo: request.memo ?? invoice.memo,
    paymentInstructions: request.paymentInstructions ?? invoice.paymentInstructions,
    sellerAddress: addressOf(request.sellerAddress) ?? invoice.sellerAddress,
    billingAddress: addressOf(request.billingAddress) ?? invoice.billingAddress,
    shippingAddress: addressOf(request.shippingAddress) ?? invoice.shippingAddress,
  };
  const updated = tx.put('invoices', repriceInvoice(tx, readdressed, lines, discounts));
  return reply(200, (state) => ({ invoice: presentInvoice(state, updated) }));
}

/**
 * A new quantity for an existing line: a component line priced by its price point is priced again under
 * that price point (tiered lines blend anew); other lines keep their unit price.
 */
function repricedQuantity(
  tx: Transaction,
  errors: FieldErrors,
  index: number,
  line: LineDraft,
  quantity: string,
  unitPriceSent: boolean,
): Partial<LineDraft> {
  const pricePoint =
    line.pricePointId === null || unitPriceSent
      ? undefined
      : tx.get('componentPricePoints', line.pricePointId);
  if (pricePoint === undefined) return { quantity, pricedAmount: null };
  const priced = priceComponentQuantity(pricePoint, quantity);
  if (!priced.ok) {
    addError(errors, `line_items[${index}].quantity`, priced.error);
    return { quantity };
  }
  return {
    quantity,
    unitPrice: priced.value.unitPrice,
    tieredUnitPrice: priced.value.tiered,
    pricedAmount: priced.value.amount ?? null,
  };
}

/** Catalog coupons with restrictions apply to the lines they name among the invoice's lines as they now are. */
function withCurrentEligibility(
  tx: Transaction,
  discounts: readonly DiscountDraft[],
  lines: readonly LineDraft[],
): DiscountDraft[] {
  return discounts.map((discount) => {
    const coupon =
      discount.sourceType === 'Coupon' && discount.sourceId !== null
        ? tx.get('coupons', discount.sourceId)
        : undefined;
    if (coupon === undefined || coupon.restrictions.length === 0) return discount;
    const eligible = lines.filter(
      (line) =>
        (line.productId !== null && couponAppliesTo(coupon, 'Product', line.productId)) ||
        (line.componentId !== null && couponAppliesTo(coupon, 'Component', line.componentId)),
    );
    return { ...discount, eligibleLineUids: eligible.map((line) => line.uid) };
  });
}

export const adHocInvoiceRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/invoices.json',
    body: invoiceRequestBody,
    errorShape: 'field-map',
    run: ({ tx, params, body }) => createAdHocInvoice(tx, params['subscription_id'] ?? '', body),
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/invoices/{uid}.json',
    body: invoiceRequestBody,
    errorShape: 'field-map',
    run: ({ tx, params, body }) =>
      updateAdHocInvoice(tx, params['subscription_id'] ?? '', params['uid'] ?? '', body),
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}/invoices/{uid}.json',
    run: ({ tx, params }) => {
      const found = editableInvoice(tx, params['subscription_id'] ?? '', params['uid'] ?? '');
      if ('error' in found) return found.error;
      tx.remove('invoices', found.invoice.id);
      return reply(204);
    },
  },
] as const satisfies readonly Route[];
