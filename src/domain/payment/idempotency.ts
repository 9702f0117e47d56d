/**
 * Idempotency keys of payment attempts. A key is derived only
 * from the state the attempt is made on, so the same request retried or replayed on the same state, a
 * journal replayed after a restart, or a catch-up performed again from an older copy of the state, all
 * give the attempt the key it had the first time; a host's gateway deduplicates on it. A genuinely new
 * attempt (a dunning retry, another invoice, another amount or card) gets a new key. Two attempts alike
 * in everything, made on the very same state, are one attempt: the engine cannot tell a host's retry of
 * a request from the same request sent again.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { keepLayoutOf } from '../../kernel/kept-layouts.js';
import type { Invoice } from '../invoice/types.js';
import type { PaymentAttempt, PaymentProfile } from './types.js';

/**
 * How many gateway attempts an invoice has seen: one history entry per failure, one payment with a
 * card or account per success (recorded payments and prepayments carry no last four).
 */
function attemptsOn(invoice: Invoice): number {
  let attempts = 0;
  for (const entry of invoice.history) if (entry.kind === 'payment_failed') attempts += 1;
  for (const payment of invoice.payments) if (payment.lastFour !== null) attempts += 1;
  return attempts;
}

/** A short digest of what an attempt asks for, so that different attempts never share a key. */
const digestOf = (content: unknown): string =>
  bytesToHex(sha256(utf8ToBytes(JSON.stringify(content)))).slice(0, 16);

/** A profile's content, without its timestamps (a retry comes later, and must keep its key). */
function profileContent(profile: PaymentProfile): Omit<PaymentProfile, 'createdAt' | 'updatedAt'> {
  const { createdAt: _created, updatedAt: _updated, ...content } = profile;
  return content;
}

/**
 * The key of the next payment attempt on an invoice: the site, the invoice, the attempt's ordinal among
 * the invoice's attempts (so it does not depend on what else the site did meanwhile), and a digest of
 * the amount and the profile charged. The digest matters for attempts made by a request that was then
 * refused: they leave no trace in the state, so a later attempt on the same invoice id and ordinal is
 * told apart by what it charges; the very same charge on the very same state is the same attempt.
 * @example paymentAttemptKey('acme', invoice, profile, '49') // 'acme/inv_0000000000007/payment/1/3e1f...'
 */
export function paymentAttemptKey(
  subdomain: string,
  invoice: Invoice,
  profile: PaymentProfile,
  amount: string,
): string {
  const ordinal = attemptsOn(invoice) + 1;
  const digest = digestOf([invoice.currency, amount, invoice.customerId, profileContent(profile)]);
  return `${subdomain}/${invoice.uid}/payment/${ordinal}/${digest}`;
}

/**
 * The key of the authorization of a new payment profile: the site, the profile id it will take, and a
 * digest of what the customer entered (so a second card on the same state is a new attempt, while the
 * same card sent again is the same attempt).
 * @example authorizationAttemptKey('acme', profile) // 'acme/payment_profile_3/authorization/5f0c...'
 */
export const authorizationAttemptKey = (subdomain: string, profile: PaymentProfile): string =>
  `${subdomain}/payment_profile_${profile.id}/authorization/${digestOf(profileContent(profile))}`;

/**
 * The key of the next refund on an invoice: the site, the invoice, the refund's ordinal among the
 * invoice's refunds, and a digest of the payment, the amount and the profile refunded to.
 * @example refundAttemptKey('acme', invoice, 12, profile, '10') // 'acme/inv_0000000000007/refund/1/9a2c...'
 */
export function refundAttemptKey(
  subdomain: string,
  invoice: Invoice,
  paymentId: number,
  profile: PaymentProfile,
  amount: string,
): string {
  const ordinal = (invoice.refunds?.length ?? 0) + 1;
  const digest = digestOf([invoice.currency, paymentId, amount, invoice.customerId, profileContent(profile)]);
  return `${subdomain}/${invoice.uid}/refund/${ordinal}/${digest}`;
}

/**
 * An attempt whose key is derived when first read. Every instance shares one accessor, and so one
 * hidden class: an object literal with a getter of its own gets a hidden class per object, kept in the
 * old generation until a full collection, and through its getter's closure it kept the whole request's
 * state alive past every young collection (a signup's 90 KB of copies promoted, each scavenge 10-25 ms).
 */
class LazilyKeyedAttempt implements PaymentAttempt {
  readonly kind: PaymentAttempt['kind'];
  readonly amount: PaymentAttempt['amount'];
  readonly currency: string;
  readonly paymentProfile: PaymentProfile;
  readonly customerId: number;
  readonly subscriptionId: number | null;
  readonly memo: string;
  readonly at: PaymentAttempt['at'];
  declare readonly idempotencyKey: string;
  #keyOf: (() => string) | undefined;
  #key: string | undefined;

  /** Own, enumerable and configurable, as an object literal's getter is: JSON and spreads show the key. */
  static readonly #keyProperty: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: LazilyKeyedAttempt): string {
      if (this.#key === undefined) {
        this.#key = (this.#keyOf as () => string)();
        this.#keyOf = undefined;
      }
      return this.#key;
    },
  };

  constructor(fields: Omit<PaymentAttempt, 'idempotencyKey'>, keyOf: () => string) {
    // Field by field, in the interface's order (every caller's): one hidden class for all attempts.
    this.kind = fields.kind;
    this.amount = fields.amount;
    this.currency = fields.currency;
    this.paymentProfile = fields.paymentProfile;
    this.customerId = fields.customerId;
    this.subscriptionId = fields.subscriptionId;
    this.memo = fields.memo;
    this.at = fields.at;
    this.#keyOf = keyOf;
    Object.defineProperty(this, 'idempotencyKey', LazilyKeyedAttempt.#keyProperty);
  }
}

/**
 * An attempt whose idempotency key is derived the first time it is read, then kept: the key is a digest
 * of the attempt's content, and a gateway that decides without it (the test gateway, during a renewal
 * day) should not pay for hashing. The key is the same whenever it is read, since what it is derived
 * from does not change. It shows like any field (in JSON, in a spread).
 * @example attemptKeyedBy(fields, () => paymentAttemptKey('acme', invoice, profile, '49')).idempotencyKey
 */
export function attemptKeyedBy(
  fields: Omit<PaymentAttempt, 'idempotencyKey'>,
  keyOf: () => string,
): PaymentAttempt {
  // A copy of the first attempt is kept so that full collections leave the class's hidden class
  // (kept-layouts.ts): a copy without the derivation, which closes over the whole request's state.
  if (!layoutKept) {
    keepLayoutOf(new LazilyKeyedAttempt(fields, NO_KEY));
    layoutKept = true;
  }
  return new LazilyKeyedAttempt(fields, keyOf);
}

let layoutKept = false;
const NO_KEY = (): string => '';
