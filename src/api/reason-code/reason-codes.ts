/** Churn reason codes: create, list (in position order), read, update, delete. */

import {
  MAX_REASON_CODES,
  nextReasonCodePosition,
  orderedReasonCodes,
  type ReasonCode,
} from '../../domain/reason-code/types.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing, PAGING_QUERY, pageOf, paging, stamp } from '../common.js';
import { z, zInt, zText } from '../decode.js';
import { type Route, reply } from '../route.js';

/** Positions count from 1; the bound keeps them small whole numbers. */
const zPosition = () => zInt(1, 1_000_000);
const nonBlank = (text: string) => text.trim().length > 0;
const zCode = () => zText(255).refine(nonBlank, 'cannot be blank');
const zDescription = () => zText(2000).refine(nonBlank, 'cannot be blank');

const createBody = z.object({
  reason_code: z.object({ code: zCode(), description: zDescription(), position: zPosition().optional() }),
});

const updateBody = z.object({
  reason_code: z.object({
    code: zCode().optional(),
    description: zDescription().optional(),
    position: zPosition().optional(),
  }),
});

/** The wire form of a reason code. */
export const presentReasonCode = (state: SiteState, reasonCode: ReasonCode) => ({
  id: reasonCode.id,
  site_id: state.settings.id,
  code: reasonCode.code,
  description: reasonCode.description,
  position: reasonCode.position,
  created_at: stamp(state, reasonCode.createdAt),
  updated_at: stamp(state, reasonCode.updatedAt),
});

const one = (reasonCode: ReasonCode) => (state: SiteState) => ({
  reason_code: presentReasonCode(state, reasonCode),
});

const allCodes = (tx: Transaction) => tableRows(tx.state.tables.reasonCodes);

/** The reason code with id `ref`, or the 404. */
function findReasonCode(tx: Transaction, ref: string) {
  const id = parseId(ref);
  const found = id === undefined ? undefined : tx.get('reasonCodes', id);
  return found === undefined ? err(missing('Reason code')) : { ok: true as const, value: found };
}

/** The 422 when another code of the site (not `selfId`) already is `code`. */
function takenProblem(tx: Transaction, code: string, selfId: number | null) {
  for (const other of allCodes(tx))
    if (other.code === code && other.id !== selfId)
      return err({ code: 'code_taken', status: 422 as const, message: 'Code: has already been taken.' });
  return undefined;
}

/** The routes of the site's churn reason codes, at the official `/reason_codes` paths. */
export const reasonCodeRoutes = [
  {
    method: 'POST',
    path: '/reason_codes.json',
    body: createBody,
    run: ({ tx, body }) => {
      const input = decodeBody(createBody, body);
      if (!input.ok) return input;
      if (tx.state.tables.reasonCodes.count >= MAX_REASON_CODES)
        return err({
          code: 'too_many_reason_codes',
          status: 422,
          message: `A site keeps at most ${MAX_REASON_CODES} reason codes.`,
        });
      const code = input.value.reason_code.code.trim();
      const taken = takenProblem(tx, code, null);
      if (taken !== undefined) return taken;
      const created = tx.put('reasonCodes', {
        id: tx.nextId('reasonCodes'),
        code,
        description: input.value.reason_code.description.trim(),
        position: input.value.reason_code.position ?? nextReasonCodePosition(allCodes(tx)),
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      return reply(201, one(created));
    },
  },
  {
    method: 'GET',
    path: '/reason_codes.json',
    query: PAGING_QUERY,
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const shown = pageOf(orderedReasonCodes(allCodes(tx)), page.value.page, page.value.perPage);
      return reply(200, (state) => shown.map((code) => ({ reason_code: presentReasonCode(state, code) })));
    },
  },
  {
    method: 'GET',
    path: '/reason_codes/{reason_code_id}.json',
    run: ({ tx, params }) => {
      const found = findReasonCode(tx, params['reason_code_id'] ?? '');
      return found.ok ? reply(200, one(found.value)) : found;
    },
  },
  {
    method: 'PUT',
    path: '/reason_codes/{reason_code_id}.json',
    body: updateBody,
    run: ({ tx, params, body }) => {
      const found = findReasonCode(tx, params['reason_code_id'] ?? '');
      if (!found.ok) return found;
      const input = decodeBody(updateBody, body);
      if (!input.ok) return input;
      const { code, description, position } = input.value.reason_code;
      const newCode = code?.trim() ?? found.value.code;
      const taken = takenProblem(tx, newCode, found.value.id);
      if (taken !== undefined) return taken;
      if (code === undefined && description === undefined && position === undefined)
        return reply(200, one(found.value));
      const updated = tx.put('reasonCodes', {
        ...found.value,
        code: newCode,
        description: description?.trim() ?? found.value.description,
        position: position ?? found.value.position,
        updatedAt: tx.now,
      });
      return reply(200, one(updated));
    },
  },
  {
    method: 'DELETE',
    path: '/reason_codes/{reason_code_id}.json',
    run: ({ tx, params }) => {
      const found = findReasonCode(tx, params['reason_code_id'] ?? '');
      if (!found.ok) return found;
      tx.remove('reasonCodes', found.value.id);
      return reply(200, () => ({ ok: 'ok' }));
    },
  },
] as const satisfies readonly Route[];
