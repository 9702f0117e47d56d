/** The subscription record. */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';
import type { PrepaidConfiguration } from './prepaid-configuration.js';
import type { SnapDay } from './snap-day.js';

/**
 * A subscription's state, as the official API names them; `can(state, command)` and `TRANSITIONS` say which
 * commands each allows. The engine reaches `trialing`, `active`, `past_due`, `unpaid`, `canceled`, `expired`,
 * `trial_ended` and `on_hold`; the others are the official API's.
 */
export type SubscriptionState =
  | 'pending'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'expired'
  | 'trial_ended'
  | 'on_hold'
  | 'suspended'
  | 'soft_failure'
  | 'paused'
  | 'assessing'
  | 'failed_to_create'
  | 'awaiting_signup';

export type CollectionMethod = 'automatic' | 'remittance' | 'prepaid' | 'invoice';

/** A snap day an update set on a subscription, and the anchor its periods were then counted from. */
export interface SubscriptionSnap {
  /** The day of the month its renewals fall on. */
  readonly day: SnapDay;
  /** The anchor the snap set; the snap holds while the periods are counted from it. */
  readonly anchor: Instant;
}

/** A subscription: a customer's product, its billing periods, balances, trial, cancellation and dunning. */
export interface Subscription {
  /** The subscription's id. */
  readonly id: number;
  /** The customer subscribed. */
  readonly customerId: number;
  /** The product subscribed to. */
  readonly productId: number;
  /** The product price point it is billed at. */
  readonly productPricePointId: number;
  /**
   * The product it moves to at its next renewal (a delayed product change), or null. A state written
   * before delayed product changes existed lacks it: read it as `?? null`.
   */
  readonly nextProductId: number | null;
  /** The price point of `nextProductId` it moves to at its next renewal, or null. */
  readonly nextProductPricePointId: number | null;
  /** The product's version when the subscription took it. */
  readonly productVersionNumber: number;
  /** The payment profile renewals are collected with, or null. */
  readonly paymentProfileId: number | null;
  /** Its state. */
  readonly state: SubscriptionState;
  /** Its state before the last change. */
  readonly previousState: SubscriptionState;
  /**
   * How its invoices are collected: `automatic` (charged to the profile) or `remittance` (paid by the
   * customer).
   */
  readonly paymentCollectionMethod: CollectionMethod;
  /** Periods are counted from this instant in the site zone: period n is [anchor + n·interval, anchor + (n+1)·interval). */
  readonly billingAnchor: Instant;
  /** Which period since the anchor the current one is (0 for the first). */
  readonly periodNumber: number;
  /** The interval the periods since the anchor are counted in; a price change of interval re-anchors. */
  readonly interval: number;
  /** The unit of `interval`. */
  readonly intervalUnit: 'day' | 'month';
  /** The start of the current billing period. */
  readonly currentPeriodStartedAt: Instant;
  /** The end of the current billing period. */
  readonly currentPeriodEndsAt: Instant;
  /** When it next renews (or its trial ends): the end of the current period. */
  readonly nextAssessmentAt: Instant;
  /** When its trial started, or null. */
  readonly trialStartedAt: Instant | null;
  /** When its trial ends or ended, or null. */
  readonly trialEndedAt: Instant | null;
  /** When it first became active, or null. */
  readonly activatedAt: Instant | null;
  /** When it expires, or null when it does not. */
  readonly expiresAt: Instant | null;
  /** When it was canceled, or null. */
  readonly canceledAt: Instant | null;
  /** The message given with its cancellation, or null. */
  readonly cancellationMessage: string | null;
  /**
   * The reason code given with its cancellation (`reason_code`), or null. Absent on rows saved before the
   * engine kept it, which read as null.
   */
  readonly reasonCode?: string | null;
  /** Who canceled it (`merchant_api`, `dunning`), or null. */
  readonly cancellationMethod: string | null;
  /** Whether a delayed cancellation is pending for the end of the current period. */
  readonly cancelAtEndOfPeriod: boolean;
  /** When a pending delayed cancellation takes effect, or null. */
  readonly delayedCancelAt: Instant | null;
  /** When it was put on hold, or null. */
  readonly onHoldAt: Instant | null;
  /** When a subscription on hold resumes by itself, if set. */
  readonly automaticallyResumeAt: Instant | null;
  /** The coupon codes it holds, in the order applied. */
  readonly couponCodes: readonly string[];
  /** The host's reference for it, or null. */
  readonly reference: string | null;
  /** The net terms of its invoices in days, or null for the site's default. */
  readonly netTerms: number | null;
  /** Outstanding amount owed (positive) or credit (negative), in the site currency. */
  readonly balance: Dec;
  /** The money it brought in, less what was returned. */
  readonly totalRevenue: Dec;
  /** The transaction id of the signup's payment, or null. */
  readonly signupPaymentId: number | null;
  /** What the signup's payment brought in. */
  readonly signupRevenue: Dec;
  /** Money held for it (prepayments), taken first by its next invoices. */
  readonly prepaymentBalance: Dec;
  /** Service credit owed to it, applied to its next invoices. */
  readonly serviceCreditBalance: Dec;
  /** Dunning: how many retries of the failed renewal have been made, and when the next is due. */
  readonly dunningAttempts: number;
  /** When the next dunning retry is due, or null when none is. */
  readonly nextDunningAt: Instant | null;
  /** The advance invoice issued for the next period, if any. */
  readonly advanceInvoiceId: number | null;
  /** The unpaid invoices that dunning retries, oldest first. */
  readonly dunningInvoiceIds: readonly number[];
  /** How its prepayment account is funded and topped up; absent until one is set. */
  readonly prepaidConfiguration?: PrepaidConfiguration;
  /**
   * The snap day an update set, with the anchor it set: it holds while the periods are still counted from
   * that anchor (a later billing date change, reactivation or new interval re-anchors them).
   */
  readonly snap?: SubscriptionSnap;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** What a cancellation was given: its message and its churn reason code, each possibly null. */
export interface CancellationReason {
  readonly message: string | null;
  readonly reasonCode: string | null;
}

/** A cancellation given neither a message nor a reason code (dunning, a group's members). */
export const NO_CANCELLATION_REASON: CancellationReason = { message: null, reasonCode: null };

/**
 * The message and reason code a subscription keeps from its cancellation (or a pending one).
 * @example cancellationReasonOf(subscription) // { message: 'Too expensive', reasonCode: 'PRICE' }
 */
export function cancellationReasonOf(subscription: Subscription): CancellationReason {
  return { message: subscription.cancellationMessage, reasonCode: subscription.reasonCode ?? null };
}
