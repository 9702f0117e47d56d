/** The request and response shapes of the embedding API: `handle`, `advance` and their results. */
import type { SiteEvent } from '../domain/event-log/types.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import type { Change } from '../engine/changes.js';
import type { SiteState } from '../engine/state.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  readonly method: HttpMethod | string;
  /** May carry a query string: '/events.json?per_page=5'. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  /** Names are matched case-insensitively. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Parsed JSON, or JSON text (malformed text: 400). */
  readonly body?: unknown;
}

export interface ApiResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface HandleResult {
  /** The very same object as the input when nothing changed. */
  readonly state: SiteState;
  readonly response: ApiResponse;
  /** The event-log records this call appended. */
  readonly events: readonly SiteEvent[];
  /**
   * What this call changed, in order (catch-up steps first, then the request): the site's event-sourced
   * log. `applyChanges(input state, changes)` equals `state`; a refused request has only those of what
   * fell due by `now` (none when nothing did).
   */
  readonly changes: readonly Change[];
  /** Set when the call hit a bug in the engine (answered 500): what to report to the host's monitoring. */
  readonly fault?: HandleFault;
}

/** A bug the engine hit while handling a call: the id the 500 answer names, and what it was. */
export interface HandleFault {
  readonly id: string;
  readonly message: string;
  readonly stack: string;
}

export interface HandleContext {
  /** The current instant. */
  readonly now: string | Date;
  /** A host's payment gateway; when absent, the test gateway (`testGateway`: by the card's last digit). */
  readonly payments?: PaymentGateway;
}
