/** Notes on a subscription: create, list (sticky ones first), read, update, delete. */

import type { SubscriptionNote } from '../../domain/subscription/note.js';
import { listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing, PAGING_QUERY, pageOf, paging, stamp } from '../common.js';
import { z, zBool, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from './subscriptions.js';

const noteBody = z.object({
  note: z.object({
    body: zText(65_535).refine((text) => text.trim().length > 0, 'cannot be blank'),
    sticky: zBool().optional(),
  }),
});

/** The wire form of a note. */
export const presentNote = (state: SiteState, note: SubscriptionNote) => ({
  id: note.id,
  body: note.body,
  subscription_id: note.subscriptionId,
  sticky: note.sticky,
  created_at: stamp(state, note.createdAt),
  updated_at: stamp(state, note.updatedAt),
});

const one = (note: SubscriptionNote) => (state: SiteState) => ({ note: presentNote(state, note) });

/** The note `noteRef` of subscription `subscriptionRef`, or the 404 naming which is missing. */
function findNote(tx: Transaction, subscriptionRef: string, noteRef: string) {
  const subscription = findSubscription(tx, subscriptionRef);
  if (subscription === undefined) return err(missing('Subscription'));
  const id = /^[1-9]\d{0,15}$/.test(noteRef) ? Number(noteRef) : undefined;
  const note = id === undefined ? undefined : tx.get('subscriptionNotes', id);
  if (note === undefined || note.subscriptionId !== subscription.id) return err(missing('Note'));
  return { ok: true as const, value: note };
}

export const subscriptionNoteRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/notes.json',
    body: noteBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(noteBody, body);
      if (!input.ok) return input;
      const note = tx.put('subscriptionNotes', {
        id: tx.nextId('subscriptionNotes'),
        subscriptionId: subscription.id,
        body: input.value.note.body,
        sticky: input.value.note.sticky ?? false,
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      return reply(201, one(note));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/notes.json',
    query: PAGING_QUERY,
    run: ({ tx, params, query }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const page = paging(query);
      if (!page.ok) return page;
      const notes = listedRows(tx.state, 'subscriptionNotes', subscription.id, 'subscriptionNotes');
      const ordered = [...notes.filter((note) => note.sticky), ...notes.filter((note) => !note.sticky)];
      const shown = pageOf(ordered, page.value.page, page.value.perPage);
      return reply(200, (state) => shown.map((note) => ({ note: presentNote(state, note) })));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/notes/{note_id}.json',
    run: ({ tx, params }) => {
      const note = findNote(tx, params['subscription_id'] ?? '', params['note_id'] ?? '');
      return note.ok ? reply(200, one(note.value)) : note;
    },
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/notes/{note_id}.json',
    body: noteBody,
    run: ({ tx, params, body }) => {
      const note = findNote(tx, params['subscription_id'] ?? '', params['note_id'] ?? '');
      if (!note.ok) return note;
      const input = decodeBody(noteBody, body);
      if (!input.ok) return input;
      const updated = tx.put('subscriptionNotes', {
        ...note.value,
        body: input.value.note.body,
        sticky: input.value.note.sticky ?? note.value.sticky,
        updatedAt: tx.now,
      });
      return reply(200, one(updated));
    },
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}/notes/{note_id}.json',
    run: ({ tx, params }) => {
      const note = findNote(tx, params['subscription_id'] ?? '', params['note_id'] ?? '');
      if (!note.ok) return note;
      tx.remove('subscriptionNotes', note.value.id);
      return reply(200);
    },
  },
] as const satisfies readonly Route[];
