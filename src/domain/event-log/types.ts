/** A record of the site's event log, as `handle` returns it and `GET /events.json` lists it. */
import type { Instant } from '../../kernel/time.js';

export type EventSpecificData = Readonly<Record<string, unknown>> | null;

/** A record of the site's event log, with the official API's field names. */
export interface SiteEvent {
  /** Its id: its position in the log, from 1. */
  readonly id: number;
  /**
   * What happened (`signup_success`, `renewal_failure`, …); a site with the new catalog experience reads
   * three keys under new names.
   */
  readonly key: string;
  /** A readable account of what happened. */
  readonly message: string;
  /** The subscription it concerns, or null. */
  readonly subscription_id: number | null;
  /** The customer it concerns, or null. */
  readonly customer_id: number | null;
  /** UTC instant; the API presents it with the site's offset. */
  readonly created_at: Instant;
  /** The key's data in the official shape, or null for a key without one. */
  readonly event_specific_data: EventSpecificData;
}
