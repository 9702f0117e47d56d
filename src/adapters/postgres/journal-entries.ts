/**
 * What the PostgreSQL journal keeps of each request that changed a site, and how it is replayed: the
 * request without its headers (replay authenticates with the site's own key, so no credential is
 * stored), the instant it was handled at, and the payment processor's answers. A refused request that
 * still changed the site (what fell due by then) is kept as an `advance` to its instant.
 */

import { handle } from '../../api/handle.js';
import type { ApiRequest } from '../../api/types.js';
import { recordedGateway } from '../../domain/payment/outcome-book.js';
import type { PaymentGateway, SettledPayment } from '../../domain/payment/types.js';
import { advance } from '../../engine/advance.js';
import type { SiteState } from '../../engine/state.js';
import type { AppliedRequest } from '../fetch.js';

/** One journal record, as stored (JSON). */
export type StoredEntry =
  | {
      readonly kind: 'request';
      readonly now: string;
      readonly request: { readonly method: string; readonly path: string; readonly body?: unknown };
      readonly payments?: readonly SettledPayment[];
    }
  | { readonly kind: 'advance'; readonly now: string; readonly payments?: readonly SettledPayment[] };

/** The record of an applied request that changed the site. */
export function entryOf(applied: AppliedRequest): StoredEntry {
  const payments = applied.payments.length === 0 ? {} : { payments: [...applied.payments] };
  if (applied.response.status >= 400) return { kind: 'advance', now: applied.now, ...payments };
  const { method, path, body } = applied.request;
  const request = body === undefined ? { method, path } : { method, path, body };
  return { kind: 'request', now: applied.now, request, ...payments };
}

function context(entry: StoredEntry): { readonly now: string; readonly payments?: PaymentGateway } {
  return entry.payments === undefined
    ? { now: entry.now }
    : { now: entry.now, payments: recordedGateway(entry.payments) };
}

/** Applies one record to a state, as it was applied when it was made. */
export function replayEntry(state: SiteState, entry: StoredEntry): SiteState {
  if (entry.kind === 'advance') return advance(state, context(entry)).state;
  const key = state.settings.apiKeys?.[0];
  const base = { method: entry.request.method, path: entry.request.path };
  const headers = key === undefined ? {} : { headers: { authorization: `Basic ${btoa(`${key}:x`)}` } };
  const request: ApiRequest =
    entry.request.body === undefined
      ? { ...base, ...headers }
      : { ...base, ...headers, body: entry.request.body };
  return handle(state, request, context(entry)).state;
}
