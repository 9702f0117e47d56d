/**
 * Proforma invoices: a priced document of what a subscription's next renewal will charge. It is not an
 * invoice: it has its own table, numbers and lifecycle, and it moves no money and no balance.
 */
import type { ChunkedList } from '../../kernel/collection.js';
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';
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
  readonly id: number;
  /** `pro_...`, encoding the row id. */
  readonly uid: string;
  /** The proforma's own sequence: its row id (the table never deletes, so the numbers have no gaps). */
  readonly number: number;
  readonly customerId: number;
  readonly subscriptionId: number;
  readonly status: ProformaStatus;
  readonly role: 'proforma';
  readonly collectionMethod: CollectionMethod;
  readonly currency: string;
  /** The day (site zone) the renewal it describes falls on: the next period's first day. */
  readonly deliveryDate: CalendarDate;
  readonly memo: string;
  readonly paymentInstructions: string;
  readonly productName: string;
  readonly productFamilyName: string;
  readonly customer: InvoiceParty;
  readonly billingAddress: InvoiceAddress;
  readonly shippingAddress: InvoiceAddress;
  readonly lines: ChunkedList<InvoiceLine>;
  readonly discounts: readonly InvoiceDiscount[];
  readonly taxes: readonly InvoiceTax[];
  readonly totals: ProformaTotals;
  /** The billing period the renewal covers, `[start, end)`. */
  readonly periodStartsAt: Instant;
  readonly periodEndsAt: Instant;
  readonly voidReason: string | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/**
 * An export batch of proforma invoices (`proformaExports` table): the proformas that were not voided
 * when it ran, by id, in id order. The engine completes a batch when it starts it.
 */
export interface ProformaExport {
  readonly id: number;
  readonly createdAt: Instant;
  readonly finishedAt: Instant;
  readonly rowCount: number;
  readonly invoiceIds: readonly number[];
}
