/** The subscription record. */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

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

export interface Subscription {
  readonly id: number;
  readonly customerId: number;
  readonly productId: number;
  readonly productPricePointId: number;
  readonly productVersionNumber: number;
  readonly paymentProfileId: number | null;
  readonly state: SubscriptionState;
  readonly previousState: SubscriptionState;
  readonly paymentCollectionMethod: CollectionMethod;
  /** Periods are counted from this instant in the site zone: period n is [anchor + n·interval, anchor + (n+1)·interval). */
  readonly billingAnchor: Instant;
  readonly periodNumber: number;
  /** The interval the periods since the anchor are counted in; a price change of interval re-anchors. */
  readonly interval: number;
  readonly intervalUnit: 'day' | 'month';
  readonly currentPeriodStartedAt: Instant;
  readonly currentPeriodEndsAt: Instant;
  readonly nextAssessmentAt: Instant;
  readonly trialStartedAt: Instant | null;
  readonly trialEndedAt: Instant | null;
  readonly activatedAt: Instant | null;
  readonly expiresAt: Instant | null;
  readonly canceledAt: Instant | null;
  readonly cancellationMessage: string | null;
  readonly cancellationMethod: string | null;
  readonly cancelAtEndOfPeriod: boolean;
  readonly delayedCancelAt: Instant | null;
  readonly onHoldAt: Instant | null;
  /** When a subscription on hold resumes by itself, if set. */
  readonly automaticallyResumeAt: Instant | null;
  readonly couponCodes: readonly string[];
  readonly reference: string | null;
  readonly netTerms: number | null;
  /** Outstanding amount owed (positive) or credit (negative), in the site currency. */
  readonly balance: Dec;
  readonly totalRevenue: Dec;
  readonly signupPaymentId: number | null;
  readonly signupRevenue: Dec;
  readonly prepaymentBalance: Dec;
  readonly serviceCreditBalance: Dec;
  /** Dunning: how many retries of the failed renewal have been made, and when the next is due. */
  readonly dunningAttempts: number;
  readonly nextDunningAt: Instant | null;
  /** The advance invoice issued for the next period, if any. */
  readonly advanceInvoiceId: number | null;
  /** The unpaid invoices that dunning retries, oldest first. */
  readonly dunningInvoiceIds: readonly number[];
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}
