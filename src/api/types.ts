/** The request and response shapes of the embedding API: `handle`, `advance` and their results. */
import type { SiteEvent } from '../domain/event-log/types.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import type { Change } from '../engine/changes.js';
import type { SiteState } from '../engine/state.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A REST request as `handle` takes it: the method, the path (with or without a query string), the headers and
 * the body.
 */
export interface ApiRequest {
  /** The HTTP method; one the route does not take answers 405. */
  readonly method: HttpMethod | string;
  /** May carry a query string: '/events.json?per_page=5'. */
  readonly path: string;
  /** Query parameters, added to those in `path` (decoded values; a list gives a name several values). */
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  /** Names are matched case-insensitively. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Parsed JSON, or JSON text (malformed text: 400). */
  readonly body?: unknown;
}

/** A REST response as `handle` answers it. */
export interface ApiResponse {
  /** The HTTP status code. */
  readonly status: number;
  /** The JSON body, as a value to serialize; absent when the answer has none (a 204, say). */
  readonly body?: unknown;
  /** Response headers the answer needs (`Retry-After` on a 503, for instance). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What `handle` answers: the new state, the response, and what the call recorded and changed. */
export interface HandleResult {
  /** The very same object as the input when nothing changed. */
  readonly state: SiteState;
  /** The REST response to send back. */
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
  /**
   * The id the 500 answer names (`Internal error <id>`): the same fault on the same input has the same id.
   */
  readonly id: string;
  /** The error's message. */
  readonly message: string;
  /** The error's stack trace, for the host's monitoring; never sent to the client. */
  readonly stack: string;
}

/** The context of `handle`: the current instant and, optionally, the host's payment gateway. */
export interface HandleContext {
  /** The current instant. */
  readonly now: string | Date;
  /** A host's payment gateway; when absent, the test gateway (`testGateway`: by the card's last digit). */
  readonly payments?: PaymentGateway;
}
