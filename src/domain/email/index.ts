/** Recorded emails and the rate limits on requesting them. */
export { admit, FIVE_PER_THIRTY_MINUTES, type SlidingWindow } from './rate-limit.js';
export type { Email, EmailKind, PaymentUpdateRequestLog } from './types.js';
