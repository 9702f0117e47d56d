/** Offers: create, list (archived ones on request), read, archive and unarchive, at the official paths. */

import type { Offer } from '../../domain/offer/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { findRef, missing, pageOf, paging } from '../common.js';
import { errorResponse, fieldErrors } from '../errors.js';
import { type Route, reply } from '../route.js';
import { createOfferBody, decodeOfferRequest } from './offer-input.js';
import { oneOffer, presentOffer } from './offer-present.js';

/** The offer an `{offer_id}` (an id or `handle:`) names, or the 404. */
function findOffer(tx: Transaction, ref: string) {
  const found = findRef(tx, 'offers', ref, 'offerHandles');
  return found === undefined ? err(missing('Offer')) : { ok: true as const, value: found };
}

/** `include_archived` as a flag, or the 422 naming it. */
function includeArchived(text: string | undefined) {
  if (text === undefined || text === '' || text === 'false' || text === '0')
    return { ok: true as const, value: false };
  if (text === 'true' || text === '1') return { ok: true as const, value: true };
  return err({ response: errorResponse(422, 'include_archived: must be true or false') });
}

/** Sets the offer's `archivedAt` (null: back on offer); an offer already so is answered unchanged. */
function setArchived(tx: Transaction, ref: string, archived: boolean) {
  const found = findOffer(tx, ref);
  if (!found.ok) return found;
  const offer = found.value;
  if ((offer.archivedAt !== null) === archived) return reply(200, oneOffer(offer));
  const updated: Offer = tx.put('offers', {
    ...offer,
    archivedAt: archived ? tx.now : null,
    updatedAt: tx.now,
  });
  return reply(200, oneOffer(updated));
}

/** The routes of the site's offers. */
export const offerRoutes = [
  {
    method: 'POST',
    path: '/offers.json',
    body: createOfferBody,
    errorShape: 'field-map',
    run: ({ tx, body }) => {
      const request = decodeOfferRequest(tx, body);
      if (!request.ok) return err(fieldErrors(request.error));
      const created = tx.put('offers', {
        id: tx.nextId('offers'),
        ...request.value,
        archivedAt: null,
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      return reply(201, oneOffer(created));
    },
  },
  {
    method: 'GET',
    path: '/offers.json',
    query: ['page', 'per_page', 'include_archived'],
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const archivedToo = includeArchived(query.get('include_archived'));
      if (!archivedToo.ok) return archivedToo;
      const listed = archivedToo.value
        ? tableRows(tx.state.tables.offers)
        : filterUnarchived(tableRows(tx.state.tables.offers));
      const shown = pageOf(listed, page.value.page, page.value.perPage);
      return reply(200, (state) => ({ offers: shown.map((offer) => presentOffer(state, offer)) }));
    },
  },
  {
    method: 'GET',
    path: '/offers/{offer_id}.json',
    run: ({ tx, params }) => {
      const found = findOffer(tx, params['offer_id'] ?? '');
      return found.ok ? reply(200, oneOffer(found.value)) : found;
    },
  },
  {
    method: 'PUT',
    path: '/offers/{offer_id}/archive.json',
    run: ({ tx, params }) => setArchived(tx, params['offer_id'] ?? '', true),
  },
  {
    method: 'PUT',
    path: '/offers/{offer_id}/unarchive.json',
    run: ({ tx, params }) => setArchived(tx, params['offer_id'] ?? '', false),
  },
] as const satisfies readonly Route[];

/** The offers not archived, lazily, in id order. */
function* filterUnarchived(offers: Iterable<Offer>): Iterable<Offer> {
  for (const offer of offers) if (offer.archivedAt === null) yield offer;
}
