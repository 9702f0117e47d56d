/**
 * A state read back from JSON (a snapshot, pieces, a host's saved copy) holds again everything the
 * running engine shares: every repeated text is a string of its own, every empty list an array of its
 * own, each invoice's payer and shipping address copies of its customer and billing address, each
 * transfer's site account an object of its own. On a site of one-invoice subscriptions that is half as
 * much heap again. `PieceSharing` puts the sharing back in each piece's rows as a snapshot is read;
 * `shareLoadedState` does it in one pass over a state parsed whole. Neither changes a byte of its JSON.
 */

import type { Customer } from '../../domain/customer/types.js';
import { PAYMENT_RELATED_KEYS } from '../../domain/event-log/keys.js';
import type { SiteEvent } from '../../domain/event-log/types.js';
import type { Invoice } from '../../domain/invoice/types.js';
import { siteAccount } from '../../domain/ledger/invoice-postings.js';
import type { LedgerAccount, LedgerTransfer } from '../../domain/ledger/types.js';
import type { PaymentProfile } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { type ChunkedList, listChunks, type Table } from '../../kernel/collection.js';
import { NONE } from '../../kernel/compact.js';

/**
 * The parts of a site state the sharing reads (a `SiteState` is one): described here rather than
 * imported, so that `upgradeState` beside the state's definition can call it.
 */
export interface LoadedState {
  readonly tables: { readonly invoices: Table<Invoice> } & Readonly<Record<string, Table<object>>>;
  readonly events: ChunkedList<SiteEvent>;
  readonly ledger: ChunkedList<LedgerTransfer>;
}

/** `JSON.parse` shares texts of up to 10 characters itself (V8 internalizes them). */
const SHORTEST_SHARED = 11;
/** The texts remembered at once; past that the memory starts again (a bound, not a working size). */
const MOST_TEXTS = 1 << 20;
const ZERO = 48;
const NINE = 57;
const LOWER_A = 97;
const LOWER_Z = 122;
const UNDERSCORE = 95;

/**
 * Whether a text is of the kinds that repeat across rows: instants, dates and periods (they start with a
 * digit: a request's instant is in every row and record it writes) and names of kinds and states
 * (`credit_card`, `invoice_sales`: lower case and underscores). Names, emails, uids and messages are
 * nearly all unique; looking them up would cost time and a map entry each for nothing.
 */
function repeats(text: string): boolean {
  if (text.length < SHORTEST_SHARED) return false;
  const first = text.charCodeAt(0);
  if (first >= ZERO && first <= NINE) return true;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if ((code < LOWER_A || code > LOWER_Z) && code !== UNDERSCORE) return false;
  }
  return true;
}

type Mutable = Record<string, unknown>;

class Sharing {
  readonly #texts = new Map<string, string>();
  /** The text shared last: a row's instants are mostly one. */
  #last = '';

  /**
   * The first string of this value seen, when `value` is another string of it: texts compare equal by
   * value, so that a copy is told from the first only by this answer.
   */
  text(value: string | null | undefined): string | undefined {
    if (typeof value !== 'string') return undefined;
    if (value === this.#last) return this.#last;
    if (!repeats(value)) return undefined;
    const known = this.#texts.get(value);
    if (known !== undefined) {
      this.#last = known;
      return known;
    }
    if (this.#texts.size >= MOST_TEXTS) this.#texts.clear();
    this.#texts.set(value, value);
    this.#last = value;
    return undefined;
  }

  /**
   * Shares, in place, a row's own texts and empty lists (one level: the nested values worth it are
   * named by the callers). A frozen row is already shared (the engine freezes only what it shares).
   */
  row(row: object | null): void {
    if (row === null || Object.isFrozen(row)) return;
    const record = row as Mutable;
    // for…in rather than a list of keys: V8 walks a row's fields from its hidden class's cache, where a
    // load by a key from a list (measured) costs more. Rows hold only own keys.
    for (const key in record) {
      const value = record[key];
      let shared: unknown;
      if (typeof value === 'string') shared = this.text(value);
      else if (Array.isArray(value) && value.length === 0 && !Object.isFrozen(value)) shared = NONE;
      if (shared === undefined) continue;
      // An own "__proto__" (JSON.parse makes one) would be the prototype if assigned.
      if (key === '__proto__') Object.defineProperty(record, key, { value: shared });
      else record[key] = shared;
    }
  }
}

/** Sets `row[key]` to the shared text when there is one (`key` is a constant at every call). */
function swap(row: object, key: string, shared: string | undefined): void {
  if (shared !== undefined) (row as Mutable)[key] = shared;
}

/** Sets `row[key]` to the shared empty list when `list` is an empty one of its own. */
function emptied(row: object, key: string, list: readonly unknown[] | undefined): void {
  if (list !== undefined && list.length === 0 && !Object.isFrozen(list)) (row as Mutable)[key] = NONE;
}

/**
 * The rows of the largest tables by name: a loop over every field of every row costs several times
 * more (measured), and their texts worth sharing are these.
 */
function shareSubscription(s: Sharing, row: Subscription): void {
  swap(row, 'billingAnchor', s.text(row.billingAnchor));
  swap(row, 'currentPeriodStartedAt', s.text(row.currentPeriodStartedAt));
  swap(row, 'currentPeriodEndsAt', s.text(row.currentPeriodEndsAt));
  swap(row, 'nextAssessmentAt', s.text(row.nextAssessmentAt));
  swap(row, 'trialStartedAt', s.text(row.trialStartedAt));
  swap(row, 'trialEndedAt', s.text(row.trialEndedAt));
  swap(row, 'activatedAt', s.text(row.activatedAt));
  swap(row, 'expiresAt', s.text(row.expiresAt));
  swap(row, 'canceledAt', s.text(row.canceledAt));
  swap(row, 'delayedCancelAt', s.text(row.delayedCancelAt));
  swap(row, 'onHoldAt', s.text(row.onHoldAt));
  swap(row, 'automaticallyResumeAt', s.text(row.automaticallyResumeAt));
  swap(row, 'nextDunningAt', s.text(row.nextDunningAt));
  swap(row, 'createdAt', s.text(row.createdAt));
  swap(row, 'updatedAt', s.text(row.updatedAt));
  emptied(row, 'couponCodes', row.couponCodes);
  emptied(row, 'dunningInvoiceIds', row.dunningInvoiceIds);
}

function shareCustomer(s: Sharing, row: Customer): void {
  swap(row, 'portalCustomerCreatedAt', s.text(row.portalCustomerCreatedAt));
  swap(row, 'portalInviteLastSentAt', s.text(row.portalInviteLastSentAt));
  swap(row, 'portalInviteLastAcceptedAt', s.text(row.portalInviteLastAcceptedAt));
  swap(row, 'createdAt', s.text(row.createdAt));
  swap(row, 'updatedAt', s.text(row.updatedAt));
}

function shareProfile(s: Sharing, row: PaymentProfile): void {
  swap(row, 'paymentType', s.text(row.paymentType));
  swap(row, 'createdAt', s.text(row.createdAt));
  swap(row, 'updatedAt', s.text(row.updatedAt));
}

/** Shares one row of the table `name`: by name for the largest tables, every field of the others. */
function shareRowOnly(s: Sharing, name: string, row: object | null): void {
  if (row === null || Object.isFrozen(row)) return;
  if (name === 'subscriptions') shareSubscription(s, row as Subscription);
  else if (name === 'invoices') shareInvoice(s, row as Invoice);
  else if (name === 'customers') shareCustomer(s, row as Customer);
  else if (name === 'paymentProfiles') shareProfile(s, row as PaymentProfile);
  else s.row(row);
}

/** Whether two objects have the same keys in the same order with the same primitive values. */
function sameFlat(a: object | null, b: object | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let at = 0; at < keys.length; at += 1) {
    const key = keys[at] as string;
    if (key !== others[at]) return false;
    const value: unknown = Reflect.get(a, key);
    if (typeof value === 'object' && value !== null) return false;
    if (value !== Reflect.get(b, key)) return false;
  }
  return true;
}

/**
 * The data of the most frequent records rebuilt by a literal of its shape. `JSON.parse` finds an
 * object's hidden class by following transitions from a root shared by all objects of as many fields;
 * the index groups keyed by ids, parsed before the event log, fill those roots' transitions, after which
 * every parsed object of a shape not seen yet gets a hidden class of its own (about 200 bytes more each;
 * objects made from `{}` fare no better once the assembler has added such keys). A literal in code gets
 * one hidden class for all it makes. The payment records' data (`signup_success`, `payment_success`,
 * `renewal_*`, two a subscription at least) and state changes are the shapes worth one; rarer ones keep
 * what they got.
 */
function rebuiltData(data: Mutable): Mutable {
  const keys = Object.keys(data);
  if (keys.length !== 2) return data;
  if (keys[0] === 'product_id' && keys[1] === 'account_transaction_id')
    return { product_id: data['product_id'], account_transaction_id: data['account_transaction_id'] };
  if (keys[0] === 'previous_subscription_state' && keys[1] === 'new_subscription_state')
    return {
      previous_subscription_state: data['previous_subscription_state'],
      new_subscription_state: data['new_subscription_state'],
    };
  return data;
}

/** Whether a record's key names data of a shape `rebuiltData` may rebuild. */
const rebuildable = (key: string): boolean =>
  PAYMENT_RELATED_KEYS.has(key) || key === 'subscription_state_change';

/**
 * A record of the event log: its key and instant, by name (the log is the longest list of a site: a loop
 * over every field of every record costs more than it finds), and its data rebuilt when frequent.
 */
function shareEventOnly(sharing: Sharing, event: SiteEvent): void {
  if (Object.isFrozen(event)) return;
  swap(event, 'key', sharing.text(event.key));
  swap(event, 'created_at', sharing.text(event.created_at));
  // The data's texts are left: dates and amounts are short (JSON.parse shares them), the rest unique.
  const data = event.event_specific_data;
  if (data === null || Object.isFrozen(data) || !rebuildable(event.key)) return;
  const rebuilt = rebuiltData(data as Mutable);
  if (rebuilt !== data) (event as unknown as Mutable)['event_specific_data'] = rebuilt;
}

/** An invoice: its instants, lines and payments (by name), empty lists, payer and shipping address. */
function shareInvoice(sharing: Sharing, invoice: Invoice): void {
  for (const lines of listChunks(invoice.lines))
    for (const line of lines) {
      const description = sharing.text(line.description);
      if (description !== undefined && !Object.isFrozen(line))
        (line as unknown as Mutable)['description'] = description;
    }
  for (const payment of invoice.payments) {
    if (Object.isFrozen(payment)) continue;
    swap(payment, 'transactionTime', sharing.text(payment.transactionTime));
    swap(payment, 'method', sharing.text(payment.method));
  }
  swap(invoice, 'periodStartedAt', sharing.text(invoice.periodStartedAt));
  swap(invoice, 'periodEndsAt', sharing.text(invoice.periodEndsAt));
  swap(invoice, 'transactionTime', sharing.text(invoice.transactionTime));
  swap(invoice, 'createdAt', sharing.text(invoice.createdAt));
  swap(invoice, 'updatedAt', sharing.text(invoice.updatedAt));
  emptied(invoice, 'discounts', invoice.discounts);
  emptied(invoice, 'taxes', invoice.taxes);
  emptied(invoice, 'credits', invoice.credits);
  emptied(invoice, 'history', invoice.history);
  emptied(invoice, 'payments', invoice.payments);
  const row = invoice as unknown as Mutable;
  if (invoice.payer !== invoice.customer && sameFlat(invoice.payer, invoice.customer))
    row['payer'] = invoice.customer;
  if (
    invoice.shippingAddress !== invoice.billingAddress &&
    sameFlat(invoice.shippingAddress, invoice.billingAddress)
  )
    row['shippingAddress'] = invoice.billingAddress;
}

/** The site's own account, shared, for a copy of it (`of` null). */
const sharedAccount = (account: LedgerAccount): LedgerAccount =>
  account.of === null && !Object.isFrozen(account) && sameFlat(account, siteAccount(account.name))
    ? siteAccount(account.name)
    : account;

/** A transfer of the books: its instant and kind (by name, as the log's) and the site's own accounts. */
function shareTransferOnly(sharing: Sharing, transfer: LedgerTransfer): void {
  if (Object.isFrozen(transfer)) return;
  swap(transfer, 'at', sharing.text(transfer.at));
  swap(transfer, 'kind', sharing.text(transfer.kind));
  const row = transfer as unknown as Mutable;
  const debit = sharedAccount(transfer.debit);
  if (debit !== transfer.debit) row['debit'] = debit;
  const credit = sharedAccount(transfer.credit);
  if (credit !== transfer.credit) row['credit'] = credit;
}

/*
 * A row of a shape this version does not know (a snapshot of an older one, before its upgrade) is left
 * as read rather than failing the load: every step only ever puts an equal value in place, so a row left
 * halfway is the same JSON.
 */
function shareRow(s: Sharing, name: string, row: object | null): void {
  try {
    shareRowOnly(s, name, row);
  } catch {}
}

function shareEvent(s: Sharing, event: SiteEvent): void {
  try {
    shareEventOnly(s, event);
  } catch {}
}

function shareTransfer(s: Sharing, transfer: LedgerTransfer): void {
  try {
    shareTransferOnly(s, transfer);
  } catch {}
}

/**
 * Shares the rows of a snapshot's piece as it is read (`PieceAssembler`), while they are new and at hand:
 * a chunk of a table, of the event log or of the books, or one row of them (a delta). The same as
 * `shareLoadedState` afterwards, for a fraction of its time: a pass over the whole state once read
 * visits memory long out of the caches, and the copies it drops have lived through collections by then.
 */
export class PieceSharing {
  readonly #sharing = new Sharing();

  /** Shares `value`, the piece read for `path`, in place. */
  piece(path: readonly unknown[], value: unknown): void {
    if (typeof value !== 'object' || value === null) return;
    const [root, name, rows] = path;
    if (root === 'tables' && rows === 'rows' && typeof name === 'string') {
      const depth = chunkDepth(path, 3);
      if (depth === undefined) return;
      if (path.length === depth && Array.isArray(value))
        for (const row of value as (object | null)[]) shareRow(this.#sharing, name, row);
      else if (path.length === depth + 1) shareRow(this.#sharing, name, value);
      return;
    }
    if (root !== 'events' && root !== 'ledger') return;
    const depth = chunkDepth(path, 1);
    if (depth === undefined) return;
    const one = root === 'events' ? shareEvent : shareTransfer;
    if (path.length === depth && Array.isArray(value))
      for (const row of value) (one as (s: Sharing, row: unknown) => void)(this.#sharing, row);
    else if (path.length === depth + 1) (one as (s: Sharing, row: unknown) => void)(this.#sharing, value);
  }
}

/**
 * The length of the path of a chunk of the list whose member names sit at `at` in `path`: a first chunk
 * is at `chunks`/n, a later one at `more`/group/n (see `ChunkedList`).
 */
function chunkDepth(path: readonly unknown[], at: number): number | undefined {
  const member = path[at];
  if (member === 'chunks') return at + 2;
  if (member === 'more') return at + 3;
  return undefined;
}

/**
 * Restores, in place, the sharing the running engine gives a state, in a state just read back from JSON:
 * repeated texts (instants, periods, event keys) one string, empty lists the shared frozen `[]`, an
 * invoice's payer its customer and its shipping address its billing address when equal, the site's own
 * ledger accounts one object each, the most frequent event data one hidden class. The JSON of the state is the
 * same, key order included; a state the engine made needs none of it (and frozen parts are not touched).
 * Linear in the state's rows and their fields; no copy of the state is made.
 * @example const state = shareLoadedState(JSON.parse(saved));
 */
export function shareLoadedState<S extends LoadedState>(state: S): S {
  const sharing = new Sharing();
  for (const [name, table] of Object.entries(state.tables) as [string, Table<object>][])
    for (const chunk of listChunks(table.rows)) for (const row of chunk) shareRow(sharing, name, row);
  for (const chunk of listChunks(state.events)) for (const event of chunk) shareEvent(sharing, event);
  for (const chunk of listChunks(state.ledger))
    for (const transfer of chunk) shareTransfer(sharing, transfer);
  return state;
}
