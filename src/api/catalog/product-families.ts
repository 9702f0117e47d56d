/** Product families: create, read, list. */

import type { ProductFamily } from '../../domain/catalog/types.js';
import type { SiteState } from '../../engine/state.js';
import { indexGet, tableRows } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import {
  decodeBody,
  findRef,
  handleFromName,
  handleProblem,
  missing,
  pageOf,
  paging,
  stamp,
} from '../common.js';
import { z, zText } from '../decode.js';
import { type Route, reply } from '../route.js';

export function presentProductFamily(state: SiteState, family: ProductFamily) {
  return {
    id: family.id,
    name: family.name,
    handle: family.handle,
    description: family.description,
    accounting_code: family.accountingCode,
    created_at: stamp(state, family.createdAt),
    updated_at: stamp(state, family.updatedAt),
  };
}

const createSchema = z.object({
  product_family: z.object({
    name: zText().min(1, 'cannot be blank'),
    handle: zText().nullish(),
    description: zText(10_000).nullish(),
    accounting_code: zText().nullish(),
  }),
});

export const productFamilyRoutes = [
  {
    method: 'POST',
    path: '/product_families.json',
    body: createSchema,
    run: ({ tx, body }) => {
      const input = decodeBody(createSchema, body);
      if (!input.ok) return input;
      const { name, handle, description, accounting_code } = input.value.product_family;
      const chosen = handle ?? handleFromName(name);
      const problem = handleProblem(
        'Handle',
        chosen,
        indexGet(tx.state.indexes.productFamilyHandles, chosen),
        null,
      );
      if (problem !== undefined) return err(problem);
      const family = tx.put('productFamilies', {
        id: tx.nextId('productFamilies'),
        name,
        handle: chosen,
        description: description ?? null,
        accountingCode: accounting_code ?? null,
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      return reply(201, (state) => ({ product_family: presentProductFamily(state, family) }));
    },
  },
  {
    method: 'GET',
    path: '/product_families.json',
    query: ['page', 'per_page'],
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const families = pageOf(
        tableRows(tx.state.tables.productFamilies),
        page.value.page,
        page.value.perPage,
      );
      return reply(200, (state) =>
        families.map((family) => ({ product_family: presentProductFamily(state, family) })),
      );
    },
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}.json',
    run: ({ tx, params }) => {
      const family = findRef(
        tx,
        'productFamilies',
        params['product_family_id'] ?? '',
        'productFamilyHandles',
      );
      if (family === undefined) return err(missing('Product family'));
      return reply(200, (state) => ({ product_family: presentProductFamily(state, family) }));
    },
  },
] as const satisfies readonly Route[];
