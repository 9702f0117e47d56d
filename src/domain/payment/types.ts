/** Payment profiles and payment attempts. */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

/** What a payment profile holds: a card or a bank account. */
export type PaymentType = 'credit_card' | 'bank_account';

/**
 * A customer's stored means of payment: a card or a bank account, of which only what can be shown is kept.
 */
export interface PaymentProfile {
  /** The profile's id. */
  readonly id: number;
  /** The customer it belongs to. */
  readonly customerId: number;
  /** A card or a bank account. */
  readonly paymentType: PaymentType;
  /** The holder's first name, or null. */
  readonly firstName: string | null;
  /** The holder's last name, or null. */
  readonly lastName: string | null;
  /** Card: the last four digits of the number; bank account: of the account number. */
  readonly lastFour: string;
  /** A card's brand (`visa`, `master`, …), or null. */
  readonly cardType: string | null;
  /** A card's expiration month, or null. */
  readonly expirationMonth: number | null;
  /** A card's expiration year, or null. */
  readonly expirationYear: number | null;
  /** A bank account's bank, or null. */
  readonly bankName: string | null;
  /** A bank account's type, or null. */
  readonly bankAccountType: 'checking' | 'savings' | null;
  /** Whether a bank account is a person's or a business's, or null. */
  readonly bankAccountHolderType: 'personal' | 'business' | null;
  /** The billing address's first line, or null. */
  readonly billingAddress: string | null;
  /** Its second line, or null. */
  readonly billingAddress2: string | null;
  /** Its city, or null. */
  readonly billingCity: string | null;
  /** Its state or province, or null. */
  readonly billingState: string | null;
  /** Its postal code, or null. */
  readonly billingZip: string | null;
  /** Its country, or null. */
  readonly billingCountry: string | null;
  /** The vault that holds the card, as the API shows it (`bogus`: the test gateway's). */
  readonly vault: string;
  /** The profile's token in that vault. */
  readonly vaultToken: string;
  /** Whether the profile is disabled. */
  readonly disabled: boolean;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** One attempt to collect money with a payment profile, as a host's gateway sees it. */
export interface PaymentAttempt {
  /**
   * `authorization` checks a card when it is stored (no money moves); `payment` collects `amount`;
   * `refund` returns `amount` of an earlier payment to the card or account it was taken from.
   */
  readonly kind: 'authorization' | 'payment' | 'refund';
  /** The amount to collect, a decimal string in `currency` ("49.00"; "0" for an authorization). */
  readonly amount: Dec;
  /** The ISO 4217 currency of `amount`. */
  readonly currency: string;
  /** The card or bank account to charge. */
  readonly paymentProfile: PaymentProfile;
  /** The customer paying. */
  readonly customerId: number;
  /** The subscription the payment is for, or null. */
  readonly subscriptionId: number | null;
  /** What the payment is for ("Payment for invoice 3", "Card verification"). */
  readonly memo: string;
  /** The instant the engine makes the attempt at (the call's `now`, or the due instant during a catch-up). */
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
  | {
      /** The payment went through. */
      readonly success: true;
      /** The processor's id for the transaction, shown on the payment. */
      readonly gatewayTransactionId?: string;
    }
  | {
      /** The payment was refused. */
      readonly success: false;
      /** Why, as the customer and the invoice's history see it. */
      readonly message: string;
      /** 3-D Secure: the customer must authenticate before the payment can go through. */
      readonly requiresAction?: boolean;
    };

/** How a host decides payments: a function from an attempt to its outcome, with no I/O in the engine. */
export type PaymentGateway = (attempt: PaymentAttempt) => PaymentOutcome;

/**
 * A gateway whose processor answers later, as every real one does: the outcome, or a promise of it. A
 * promise that rejects is a failed payment with the rejection's reason, as a throw is.
 */
export type AsyncPaymentGateway = (attempt: PaymentAttempt) => PaymentOutcome | PromiseLike<PaymentOutcome>;

/** An attempt's outcome as the processor gave it, keyed by the attempt's idempotency key. */
export interface SettledPayment {
  /** The attempt's idempotency key. */
  readonly idempotencyKey: string;
  /** The outcome the processor gave (a rejection becomes a failed outcome with its reason). */
  readonly outcome: PaymentOutcome;
}
