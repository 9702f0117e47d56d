/**
 * The wire form of a proforma invoice (the official `ProformaInvoice`): the invoice presenter's line
 * items, discounts, taxes, seller, customer and addresses, under the proforma's own fields.
 */

import type { ProformaInvoice } from '../../domain/invoice/proforma.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { SiteState } from '../../engine/state.js';
import { formatMoney } from '../../kernel/money.js';
import { stamp } from '../common.js';
import { presentInvoice } from './invoice-present.js';

/** A proforma seen as an unpaid draft invoice, so that the invoice presenter can show its parts. */
function asInvoice(proforma: ProformaInvoice): Invoice {
  const { totals } = proforma;
  return {
    id: proforma.id,
    uid: proforma.uid,
    number: String(proforma.number),
    sequenceNumber: proforma.number,
    customerId: proforma.customerId,
    subscriptionId: proforma.subscriptionId,
    status: 'draft',
    role: 'unset',
    collectionMethod: proforma.collectionMethod,
    currency: proforma.currency,
    issueDate: proforma.deliveryDate,
    dueDate: proforma.deliveryDate,
    paidDate: null,
    netTerms: 0,
    memo: proforma.memo,
    paymentInstructions: proforma.paymentInstructions,
    productName: proforma.productName,
    productFamilyName: proforma.productFamilyName,
    consolidationLevel: 'none',
    parentInvoiceId: null,
    subscriptionGroupId: null,
    customer: proforma.customer,
    payer: proforma.customer,
    sellerAddress: null,
    billingAddress: proforma.billingAddress,
    shippingAddress: proforma.shippingAddress,
    lines: proforma.lines,
    discounts: proforma.discounts,
    taxes: proforma.taxes,
    payments: [],
    credits: [],
    history: [],
    totals: { ...totals, credit: '0', debit: '0', refund: '0', paid: '0', due: totals.total },
    periodStartedAt: proforma.periodStartsAt,
    periodEndsAt: proforma.periodEndsAt,
    advance: false,
    voidReason: proforma.voidReason,
    transactionTime: proforma.createdAt,
    createdAt: proforma.createdAt,
    updatedAt: proforma.updatedAt,
  };
}

/**
 * A proforma invoice as the API answers it (bare, no envelope).
 * @example presentProforma(state, proforma).status // 'draft'
 */
export function presentProforma(state: SiteState, proforma: ProformaInvoice) {
  const wire = presentInvoice(state, asInvoice(proforma));
  const money = (amount: string) => formatMoney(amount, proforma.currency);
  return {
    uid: proforma.uid,
    site_id: state.settings.id,
    customer_id: proforma.customerId,
    subscription_id: proforma.subscriptionId,
    number: proforma.number,
    sequence_number: proforma.number,
    created_at: stamp(state, proforma.createdAt),
    delivery_date: proforma.deliveryDate,
    status: proforma.status,
    collection_method: proforma.collectionMethod,
    payment_instructions: proforma.paymentInstructions,
    currency: proforma.currency,
    consolidation_level: 'none',
    product_name: proforma.productName,
    product_family_name: proforma.productFamilyName,
    role: proforma.role,
    seller: wire.seller,
    customer: wire.customer,
    memo: proforma.memo,
    billing_address: wire.billing_address,
    shipping_address: wire.shipping_address,
    subtotal_amount: wire.subtotal_amount,
    discount_amount: wire.discount_amount,
    tax_amount: wire.tax_amount,
    total_amount: wire.total_amount,
    credit_amount: money('0'),
    paid_amount: money('0'),
    refund_amount: money('0'),
    due_amount: wire.due_amount,
    line_items: wire.line_items,
    discounts: wire.discounts,
    taxes: wire.taxes,
    credits: [],
    payments: [],
    custom_fields: [],
    public_url: `https://${state.settings.subdomain}.billing-core.local/proforma_invoices/${proforma.uid}`,
    void_reason: proforma.voidReason,
  };
}
