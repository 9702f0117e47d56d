/**
 * Proforma invoices: a priced document of what a subscription's next renewal will charge. It is not an
 * invoice: it has its own table, numbers and lifecycle, and it moves no money and no balance.
 */
import type { ChunkedList } from '../../kernel/collection.js';
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';
import type { ExportBatch, ListedExportBatch } from '../export/batch.js';
import type { CollectionMethod } from '../subscription/types.js';
import type { InvoiceAddress, InvoiceDiscount, InvoiceLine, InvoiceParty, InvoiceTax } from './types.js';

/** The official `ProformaInvoiceStatus` values; the engine creates `draft` and voids to `voided`. */
export type ProformaStatus = 'draft' | 'voided' | 'archived';

/** What can be done to a proforma invoice. */
export type ProformaAction = 'void';

/** The transition table of a proforma invoice's status: the status each action leads to, by status. */
export const PROFORMA_TRANSITIONS: Readonly<
  Record<ProformaStatus, Readonly<Partial<Record<ProformaAction, ProformaStatus>>>>
> = {
  draft: { void: 'voided' },
  voided: {},
  archived: {},
};

/**
 * Whether an action is allowed on a proforma invoice in a status.
 * @example canProforma('draft', 'void') // true
 * @example canProforma('voided', 'void') // false
 */
export const canProforma = (status: ProformaStatus, action: ProformaAction): boolean =>
  PROFORMA_TRANSITIONS[status][action] !== undefined;

/** The priced amounts of a proforma invoice. Nothing is ever paid or credited on one. */
export interface ProformaTotals {
  readonly subtotal: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  readonly total: Dec;
}

/** A proforma invoice as the engine stores it (`proformaInvoices` table). */
export interface ProformaInvoice {
  /** The proforma invoice's row id. */
  readonly id: number;
  /** `pro_...`, encoding the row id. */
  readonly uid: string;
  /** The proforma's own sequence: its row id (the table never deletes, so the numbers have no gaps). */
  readonly number: number;
  /** The customer it is addressed to. */
  readonly customerId: number;
  /** The subscription whose renewal it describes. */
  readonly subscriptionId: number;
  /** `draft` until voided. */
  readonly status: ProformaStatus;
  /** Always `proforma`. */
  readonly role: 'proforma';
  /** How the renewal will be collected. */
  readonly collectionMethod: CollectionMethod;
  /** The ISO 4217 currency of its amounts. */
  readonly currency: string;
  /** The day (site zone) the renewal it describes falls on: the next period's first day. */
  readonly deliveryDate: CalendarDate;
  /** The memo printed on it. */
  readonly memo: string;
  /** The payment instructions printed on it. */
  readonly paymentInstructions: string;
  /** The subscription's product, as named when it was made. */
  readonly productName: string;
  /** That product's family, as named when it was made. */
  readonly productFamilyName: string;
  /** The customer, as addressed. */
  readonly customer: InvoiceParty;
  /** The billing address. */
  readonly billingAddress: InvoiceAddress;
  /** The shipping address. */
  readonly shippingAddress: InvoiceAddress;
  /** The renewal's lines, as the renewal's own charge builders price them. */
  readonly lines: ChunkedList<InvoiceLine>;
  /** The recurring coupons' discounts. */
  readonly discounts: readonly InvoiceDiscount[];
  /** The taxes. */
  readonly taxes: readonly InvoiceTax[];
  /** Its priced amounts. */
  readonly totals: ProformaTotals;
  /** The billing period the renewal covers, `[start, end)`. */
  readonly periodStartsAt: Instant;
  /** The end of the billing period the renewal covers. */
  readonly periodEndsAt: Instant;
  /** Why it was voided, or null. */
  readonly voidReason: string | null;
  /** When it was made. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/**
 * An export batch of proforma invoices (`proformaExports` table): the proformas that were not voided
 * when it ran, by id, in id order; a batch an earlier version stored lists them one by one.
 */
export type ProformaExport = ExportBatch | ListedExportBatch;
