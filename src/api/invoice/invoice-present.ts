/** The wire form of an invoice: money as strings with the currency's decimals. */

import { presentedDiscountBreakouts, presentedTaxBreakouts } from '../../domain/invoice/stored-breakouts.js';
import type {
  Invoice,
  InvoiceAddress,
  InvoiceParty,
  InvoicePayment,
  InvoiceRefund,
} from '../../domain/invoice/types.js';
import type { SiteState } from '../../engine/state.js';
import { listChunks, tableGet } from '../../kernel/collection.js';
import { moneyFormatter } from '../../kernel/money.js';
import { stamp } from '../common.js';

const address = (value: InvoiceAddress | null) =>
  value === null
    ? { street: null, line2: null, city: null, state: null, zip: null, country: null }
    : {
        street: value.street,
        line2: value.line2,
        city: value.city,
        state: value.state,
        zip: value.zip,
        country: value.country,
      };

/** The party's id, keyed by the site's service name (`chargify_id` for the official dialect). */
type PartyId = { readonly [key: `${string}_id`]: InvoiceParty['id'] };

function party(state: SiteState, value: InvoiceParty, withReference: boolean) {
  const id: PartyId = { [`${state.settings.serviceName}_id`]: value.id };
  return Object.assign(id, {
    first_name: value.firstName,
    last_name: value.lastName,
    organization: value.organization,
    email: value.email,
    vat_number: value.vatNumber,
    ...(withReference ? { reference: value.reference } : {}),
  });
}

export function presentInvoice(state: SiteState, invoice: Invoice) {
  const currency = invoice.currency;
  const money = moneyFormatter(currency);
  const lines = [];
  // Chunk by chunk (a generator step per chunk, not per line): an invoice may have a million lines.
  for (const chunk of listChunks(invoice.lines)) {
    for (const line of chunk) {
      lines.push({
        uid: line.uid,
        title: line.title,
        description: line.description,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        subtotal_amount: money(line.subtotal),
        discount_amount: money(line.discount),
        tax_amount: money(line.tax),
        total_amount: money(line.total),
        tax_included: false,
        tiered_unit_price: line.tieredUnitPrice,
        period_range_start: line.periodRangeStart,
        period_range_end: line.periodRangeEnd,
        transaction_id: line.transactionId,
        product_id: line.productId,
        product_version: line.productVersion,
        component_id: line.componentId,
        price_point_id: line.pricePointId,
        billing_schedule_item_id: null,
        hide: false,
        component_cost_data: null,
        product_price_point_id: line.productPricePointId,
        custom_item: line.customItem,
        kind: line.kind,
      });
    }
  }
  const totals = invoice.totals;
  const parent =
    invoice.parentInvoiceId === null ? undefined : tableGet(state.tables.invoices, invoice.parentInvoiceId);
  return {
    id: invoice.id,
    uid: invoice.uid,
    site_id: state.settings.id,
    customer_id: invoice.customerId,
    subscription_id: invoice.subscriptionId,
    number: invoice.number,
    sequence_number: invoice.sequenceNumber,
    transaction_time: stamp(state, invoice.transactionTime),
    created_at: stamp(state, invoice.createdAt),
    updated_at: stamp(state, invoice.updatedAt),
    issue_date: invoice.issueDate,
    due_date: invoice.dueDate,
    paid_date: invoice.paidDate,
    status: invoice.status,
    role: invoice.role,
    parent_invoice_id: invoice.parentInvoiceId,
    collection_method: invoice.collectionMethod,
    payment_instructions: invoice.paymentInstructions,
    currency,
    consolidation_level: invoice.consolidationLevel,
    parent_invoice_uid: parent?.uid ?? null,
    subscription_group_id: invoice.subscriptionGroupId,
    parent_invoice_number: parent === undefined ? null : Number(parent.number),
    // A parent invoice belongs to the group's primary subscription; its children point at it.
    group_primary_subscription_id:
      invoice.consolidationLevel === 'parent' ? invoice.subscriptionId : (parent?.subscriptionId ?? null),
    product_name: invoice.productName,
    product_family_name: invoice.productFamilyName,
    ...sellerAndCustomer(state, invoice),
    payer: party(state, invoice.payer, false),
    recipient_emails: [invoice.customer.email],
    net_terms: invoice.netTerms,
    memo: invoice.memo,
    billing_address: address(invoice.billingAddress),
    shipping_address: address(invoice.shippingAddress),
    subtotal_amount: money(totals.subtotal),
    discount_amount: money(totals.discount),
    tax_amount: money(totals.tax),
    total_amount: money(totals.total),
    credit_amount: money(totals.credit),
    debit_amount: money(totals.debit),
    refund_amount: money(totals.refund),
    paid_amount: money(totals.paid),
    due_amount: money(totals.due),
    line_items: lines,
    discounts: invoice.discounts.map((discount) => ({
      uid: discount.uid,
      title: discount.title,
      description: discount.description,
      code: discount.code,
      subcode: discount.subcode,
      source_type: discount.sourceType,
      source_id: discount.sourceId,
      discount_type: discount.discountType,
      percentage: discount.percentage,
      eligible_amount: money(discount.eligibleAmount),
      discount_amount: money(discount.discountAmount),
      transaction_id: discount.transactionId,
      line_item_breakouts: presentedDiscountBreakouts(discount.breakouts, money),
    })),
    taxes: invoice.taxes.map((tax) => ({
      uid: tax.uid,
      title: tax.title,
      description: null,
      source_type: 'Tax',
      source_id: tax.sourceId,
      percentage: tax.percentage,
      taxable_amount: money(tax.taxableAmount),
      tax_amount: money(tax.taxAmount),
      transaction_id: tax.transactionId,
      line_item_breakouts: presentedTaxBreakouts(tax.breakouts, money),
      tax_component_breakouts: [],
      eu_vat: false,
      type: 'Tax',
      tax_exempt_amount: '0.00',
    })),
    credits: invoice.credits.map((credit) => ({
      uid: credit.uid,
      credit_note_number: credit.creditNoteNumber,
      credit_note_uid: credit.uid,
      transaction_time: stamp(state, credit.transactionTime),
      memo: credit.memo,
      original_amount: money(credit.originalAmount),
      applied_amount: money(credit.appliedAmount),
    })),
    debits: [],
    refunds: (invoice.refunds ?? []).map((refund) => presentRefund(refund, money)),
    payments: invoice.payments.map((payment) => ({
      transaction_time: stamp(state, payment.transactionTime),
      memo: payment.memo,
      original_amount: money(payment.originalAmount),
      applied_amount: money(payment.appliedAmount),
      payment_method: paymentMethodOf(payment),
      transaction_id: payment.transactionId,
      prepayment: payment.prepayment,
      gateway_handle: null,
      gateway_used: payment.method === 'credit_card' || payment.method === 'bank_account' ? 'bogus' : null,
      gateway_transaction_id: payment.gatewayTransactionId,
      received_on: payment.receivedOn,
      uid: payment.uid,
    })),
    custom_fields: [],
    display_settings: { hide_zero_subtotal_lines: false, include_discounts_on_lines: false },
    public_url: `https://${state.settings.subdomain}.billing-core.local/invoices/${invoice.uid}`,
    public_url_expires_on: null,
    previous_balance_data: { captured_at: stamp(state, invoice.createdAt), invoices: [] },
  };
}

/** A refund as the official `InvoiceRefund` shows it (an external one names no gateway). */
export function presentRefund(
  refund: Pick<
    InvoiceRefund,
    'transactionId' | 'paymentId' | 'memo' | 'amount' | 'external' | 'gatewayTransactionId'
  >,
  money: (value: string) => string,
) {
  return {
    transaction_id: refund.transactionId,
    payment_id: refund.paymentId,
    memo: refund.memo,
    original_amount: money(refund.amount),
    applied_amount: money(refund.amount),
    gateway_transaction_id: refund.gatewayTransactionId,
    gateway_used: refund.external ? 'external' : 'bogus',
    gateway_handle: null,
    ach_late_reject: null,
  };
}

/** The seller and the customer as an invoice shows them; its credit notes show the same. */
export function sellerAndCustomer(state: SiteState, invoice: Invoice) {
  return {
    seller: {
      name: state.settings.invoiceDefaults.seller.name,
      address:
        invoice.sellerAddress === null
          ? { ...state.settings.invoiceDefaults.seller.address }
          : address(invoice.sellerAddress),
      phone: state.settings.invoiceDefaults.seller.phone,
      logo_url: state.settings.invoiceDefaults.seller.logoUrl,
    },
    customer: party(state, invoice.customer, true),
  };
}

/** An invoice's billing and shipping addresses as the API shows them. */
export const invoiceAddresses = (invoice: Invoice) => ({
  billing_address: address(invoice.billingAddress),
  shipping_address: address(invoice.shippingAddress),
});

/** How a payment was made, as the official `InvoicePaymentMethod` shows it (a card, or external). */
export function paymentMethodOf(payment: InvoicePayment) {
  return payment.method === 'credit_card'
    ? {
        type: 'credit_card' as const,
        card_brand: payment.cardType ?? 'bogus',
        card_expiration: '',
        last_four: payment.lastFour,
        masked_card_number: `XXXX-XXXX-XXXX-${payment.lastFour ?? ''}`,
      }
    : { type: 'external' as const, kind: payment.method, details: null, memo: payment.memo };
}
