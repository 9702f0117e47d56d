/**
 * The event log: list with paging, id bounds, direction, key filter and date ranges; a
 * subscription's events; the count. Pages are found by seeking in the log and its indexes (the ids of
 * each key and of each subscription, kept by `evolve`), so a page costs about the same from a log of a
 * million records as from one of a thousand (measured by the events benchmark).
 */

import { keyEventIds, subscriptionEventIds } from '../../domain/event-log/log-index.js';
import { countIds, type IdSource, idList, pageIds, wholeLog } from '../../domain/event-log/seek.js';
import type { SiteEvent } from '../../domain/event-log/types.js';
import { presentedIssuedData } from '../../engine/invoice/issued-event.js';
import type { SiteState } from '../../engine/state.js';
import { listGet } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { missing, PAGING_QUERY, stamp } from '../common.js';
import { DATE_RANGE_QUERY } from '../date-range.js';
import { type Route, reply } from '../route.js';
import { type EventQuery, readEventQuery } from './events-query.js';

export function presentEvent(state: SiteState, event: SiteEvent) {
  return {
    id: event.id,
    key: event.key,
    message: event.message,
    subscription_id: event.subscription_id,
    customer_id: event.customer_id,
    created_at: stamp(state, event.created_at),
    event_specific_data:
      event.key === 'invoice_issued' && event.event_specific_data !== null
        ? presentedIssuedData(state, event.event_specific_data)
        : event.event_specific_data,
  };
}

/** The ascending id sources whose union is the site-wide listing: the whole log, or one per key. */
function siteSources(state: SiteState, keys: EventQuery['keys']): IdSource[] {
  if (keys === null) return [wholeLog(state.events.length)];
  return keys.map((key) => idList(keyEventIds(state.eventIndex, key))).filter((source) => source.length > 0);
}

const skipOf = (request: EventQuery) => (request.page - 1) * request.perPage;

const recordsOf = (state: SiteState, ids: readonly number[]): SiteEvent[] =>
  ids.flatMap((id) => listGet(state.events, id - 1) ?? []);

/** One page of the site-wide listing, in the requested order. */
function sitePage(state: SiteState, request: EventQuery): SiteEvent[] {
  const ids = pageIds(siteSources(state, request.keys), {
    from: request.fromId,
    to: request.toId,
    direction: request.direction,
    skip: skipOf(request),
    limit: request.perPage,
  });
  return recordsOf(state, ids);
}

/**
 * One page of a subscription's records. With a key filter the subscription's own ids are read in order
 * and tested (a cost bounded by that subscription's records, not by the log).
 */
function subscriptionPage(state: SiteState, subscriptionId: number, request: EventQuery): SiteEvent[] {
  const source = idList(subscriptionEventIds(state.eventIndex, subscriptionId));
  const page = { from: request.fromId, to: request.toId, direction: request.direction };
  if (request.keys === null)
    return recordsOf(state, pageIds([source], { ...page, skip: skipOf(request), limit: request.perPage }));
  const keys = new Set(request.keys);
  const first = source.below(request.fromId);
  const last = source.below(request.toId) - 1;
  const step = request.direction === 'asc' ? 1 : -1;
  const selected: SiteEvent[] = [];
  let skipped = 0;
  for (
    let position = step === 1 ? first : last;
    position >= first && position <= last && selected.length < request.perPage;
    position += step
  ) {
    const event = listGet(state.events, source.at(position) - 1);
    if (event === undefined || !keys.has(event.key)) continue;
    if (skipped < skipOf(request)) skipped += 1;
    else selected.push(event);
  }
  return selected;
}

/** The query parameters of the listing (dates and filters as the official API names them). */
const EVENT_QUERY = [
  ...PAGING_QUERY,
  'direction',
  'since_id',
  'max_id',
  'filter',
  'date_field',
  ...DATE_RANGE_QUERY,
] as const;

export const eventRoutes = [
  {
    method: 'GET',
    path: '/events.json',
    query: EVENT_QUERY,
    run: ({ tx, query }) => {
      const request = readEventQuery(tx.state, query, true);
      if (!request.ok) return request;
      const events = sitePage(tx.state, request.value);
      return reply(200, (state) => events.map((event) => ({ event: presentEvent(state, event) })));
    },
  },
  {
    method: 'GET',
    path: '/events/count.json',
    query: EVENT_QUERY,
    run: ({ tx, query }) => {
      const request = readEventQuery(tx.state, query, true);
      if (!request.ok) return request;
      const { fromId, toId, keys } = request.value;
      const count = countIds(siteSources(tx.state, keys), fromId, toId);
      return reply(200, () => ({ count }));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/events.json',
    query: ['page', 'per_page', 'direction', 'since_id', 'max_id', 'filter'],
    run: ({ tx, query, params }) => {
      const subscription = tx.get('subscriptions', Number(params['subscription_id']));
      if (subscription === undefined || !/^\d+$/.test(params['subscription_id'] ?? ''))
        return err(missing('Subscription'));
      const request = readEventQuery(tx.state, query, false);
      if (!request.ok) return request;
      const events = subscriptionPage(tx.state, subscription.id, request.value);
      return reply(200, (state) => events.map((event) => ({ event: presentEvent(state, event) })));
    },
  },
] as const satisfies readonly Route[];
