/** The emails the engine records (it sends nothing: a host reads the outbox and delivers). */
import type { Instant } from '../../kernel/time.js';

/** What an email is about. */
export type EmailKind = 'portal_invitation' | 'payment_update_request' | 'invoice';

/** One recorded email: a row of the site's `emails` table, in the order the engine recorded them. */
export interface Email {
  /** The email's id, in the order recorded. */
  readonly id: number;
  /** What it is about. */
  readonly kind: EmailKind;
  /** The recipient's address (the customer's email). */
  readonly to: string;
  /** The customer it is sent to. */
  readonly customerId: number;
  /** The subscription it concerns, or null. */
  readonly subscriptionId: number | null;
  /** When it was recorded. */
  readonly at: Instant;
  /** Its subject line. */
  readonly subject: string;
  /** Copied addresses (an invoice sent to several recipients: all but the first, and the cc list). */
  readonly cc?: readonly string[];
  /** Blind-copied addresses. */
  readonly bcc?: readonly string[];
}

/** The recent payment update emails requested for one subscription (the rate limit's memory). */
export interface PaymentUpdateRequestLog {
  readonly id: number;
  readonly subscriptionId: number;
  /** Instants of the requests within the current window, oldest first (at most the window's limit). */
  readonly recentRequests: readonly Instant[];
}
