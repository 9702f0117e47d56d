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
import type { Invoice } from '../invoice/types.js';
import { testGateway } from './test-gateway.js';
import type { PaymentAttempt, PaymentGateway, PaymentProfile } from './types.js';

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
 * An attempt whose idempotency key is derived the first time it is read, then kept: the key is a digest
 * of the attempt's content, and a gateway that decides without it (the test gateway, during a renewal
 * day) should not pay for hashing. The key is the same whenever it is read, since what it is derived
 * from does not change.
 * @example attemptKeyedBy(fields, () => paymentAttemptKey('acme', invoice, profile, '49')).idempotencyKey
 */
export function attemptKeyedBy(
  fields: Omit<PaymentAttempt, 'idempotencyKey'>,
  keyOf: () => string,
): PaymentAttempt {
  let key: string | undefined;
  return {
    ...fields,
    get idempotencyKey(): string {
      key ??= keyOf();
      return key;
    },
  };
}

/**
 * An attempt seen only by the test gateway, which reads neither its key nor its properties as a set: the
 * same fields and the same key when read, made as a class instance, which costs a renewal a fiftieth of
 * the literal with a getter that a host's gateway is given (an own, enumerable key, as it always had).
 */
class TestAttempt implements PaymentAttempt {
  readonly kind: PaymentAttempt['kind'];
  readonly amount: PaymentAttempt['amount'];
  readonly currency: string;
  readonly paymentProfile: PaymentProfile;
  readonly customerId: number;
  readonly subscriptionId: number | null;
  readonly memo: string;
  readonly at: PaymentAttempt['at'];
  readonly #keyOf: () => string;
  #key: string | undefined;

  constructor(fields: Omit<PaymentAttempt, 'idempotencyKey'>, keyOf: () => string) {
    this.kind = fields.kind;
    this.amount = fields.amount;
    this.currency = fields.currency;
    this.paymentProfile = fields.paymentProfile;
    this.customerId = fields.customerId;
    this.subscriptionId = fields.subscriptionId;
    this.memo = fields.memo;
    this.at = fields.at;
    this.#keyOf = keyOf;
  }

  get idempotencyKey(): string {
    this.#key ??= this.#keyOf();
    return this.#key;
  }
}

/**
 * `attemptKeyedBy` for the gateway that will decide it: the test gateway's attempts are made the cheap
 * way (a renewal day with it makes one per renewal), every other gateway's as `attemptKeyedBy` makes them.
 * @example gateway(attemptFor(gateway, fields, () => paymentAttemptKey('acme', invoice, profile, '49')))
 */
export const attemptFor = (
  gateway: PaymentGateway,
  fields: Omit<PaymentAttempt, 'idempotencyKey'>,
  keyOf: () => string,
): PaymentAttempt =>
  gateway === testGateway ? new TestAttempt(fields, keyOf) : attemptKeyedBy(fields, keyOf);
