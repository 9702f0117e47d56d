/** Payment profiles and payment attempts. */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

export type PaymentType = 'credit_card' | 'bank_account';

export interface PaymentProfile {
  readonly id: number;
  readonly customerId: number;
  readonly paymentType: PaymentType;
  readonly firstName: string | null;
  readonly lastName: string | null;
  /** Card: the last four digits of the number; bank account: of the account number. */
  readonly lastFour: string;
  readonly cardType: string | null;
  readonly expirationMonth: number | null;
  readonly expirationYear: number | null;
  readonly bankName: string | null;
  readonly bankAccountType: 'checking' | 'savings' | null;
  readonly bankAccountHolderType: 'personal' | 'business' | null;
  readonly billingAddress: string | null;
  readonly billingAddress2: string | null;
  readonly billingCity: string | null;
  readonly billingState: string | null;
  readonly billingZip: string | null;
  readonly billingCountry: string | null;
  readonly vault: string;
  readonly vaultToken: string;
  readonly disabled: boolean;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** One attempt to collect money with a payment profile, as a host's gateway sees it. */
export interface PaymentAttempt {
  readonly kind: 'authorization' | 'payment';
  readonly amount: Dec;
  readonly currency: string;
  readonly paymentProfile: PaymentProfile;
  readonly customerId: number;
  readonly subscriptionId: number | null;
  readonly memo: string;
  readonly at: Instant;
  /**
   * The same for the same attempt however often it is made (a host retrying a request, a replay of the
   * journal, a restart), different for every new attempt (each dunning retry is one): a host's processor
   * deduplicates on it: `{subdomain}/{invoice uid}/payment/{n}/{digest of the amount and card}` for a
   * payment, `{subdomain}/payment_profile_{id}/authorization/{digest of the card}` for a card
   * authorization (see idempotency.ts).
   */
  readonly idempotencyKey: string;
}

/** A gateway's answer. `requiresAction` is 3-D Secure: the customer must authenticate first. */
export type PaymentOutcome =
  | { readonly success: true; readonly gatewayTransactionId?: string }
  | { readonly success: false; readonly message: string; readonly requiresAction?: boolean };

/** How a host decides payments: a function from an attempt to its outcome, with no I/O in the engine. */
export type PaymentGateway = (attempt: PaymentAttempt) => PaymentOutcome;

/**
 * A gateway whose processor answers later, as every real one does: the outcome, or a promise of it. A
 * promise that rejects is a failed payment with the rejection's reason, as a throw is.
 */
export type AsyncPaymentGateway = (attempt: PaymentAttempt) => PaymentOutcome | PromiseLike<PaymentOutcome>;

/** An attempt's outcome as the processor gave it, keyed by the attempt's idempotency key. */
export interface SettledPayment {
  readonly idempotencyKey: string;
  readonly outcome: PaymentOutcome;
}
