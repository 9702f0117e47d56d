/** A record of the site's event log, as `handle` returns it and `GET /events.json` lists it. */
import type { Instant } from '../../kernel/time.js';

export type EventSpecificData = Readonly<Record<string, unknown>> | null;

export interface SiteEvent {
  readonly id: number;
  readonly key: string;
  readonly message: string;
  readonly subscription_id: number | null;
  readonly customer_id: number | null;
  /** UTC instant; the API presents it with the site's offset. */
  readonly created_at: Instant;
  readonly event_specific_data: EventSpecificData;
}
