/** Churn reason codes: the site's list of reasons a subscriber may give for cancelling. */
import type { Instant } from '../../kernel/time.js';

/** One churn reason code of the site. */
export interface ReasonCode {
  /** The code's id. */
  readonly id: number;
  /** The short code a cancellation names (`reason_code`), unique within the site. */
  readonly code: string;
  /** What the code means, as lists show it. */
  readonly description: string;
  /** Where it sits in lists: lower first, ties in creation order. */
  readonly position: number;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/**
 * How many reason codes a site keeps at most. The list is a menu shown to a cancelling subscriber, so a
 * cap this high is never a constraint, and it keeps every listing and uniqueness check a bounded scan.
 */
export const MAX_REASON_CODES = 1000;

/**
 * The codes in list order: by position, then by id (creation order) among equal positions.
 * @example orderedReasonCodes([b, a]) // a first when a.position < b.position
 */
export function orderedReasonCodes(codes: Iterable<ReasonCode>): ReasonCode[] {
  return [...codes].sort((left, right) => left.position - right.position || left.id - right.id);
}

/**
 * The position a new code takes when the request gives none: after every existing code.
 * @example nextReasonCodePosition([]) // 1
 */
export function nextReasonCodePosition(codes: Iterable<ReasonCode>): number {
  let last = 0;
  for (const code of codes) last = Math.max(last, code.position);
  return last + 1;
}
