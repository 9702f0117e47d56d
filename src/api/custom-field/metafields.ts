/** Metafields of a resource type: create, list, update (rename) and delete. */
import type { Metafield, ResourceType } from '../../domain/custom-field/types.js';
import { invalid } from '../../domain/errors.js';
import {
  createMetafield,
  deleteMetafield,
  FieldNames,
  metafieldIds,
  updateMetafield,
} from '../../engine/custom-field/fields.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { missing, PAGING_QUERY, pageOf, paging } from '../common.js';
import { type Route, reply } from '../route.js';
import {
  createMetafieldsBody,
  createMetafieldsList,
  decodeInput,
  metafieldInput,
  updateMetafieldsBody,
  updateMetafieldsList,
} from './input.js';
import { pageFigures, presentMetafield } from './present.js';
import { descending } from './resource.js';

/** The metafields written, as the state after the request has them (a data count then). */
const presentAll = (written: readonly Metafield[]) => (state: SiteState) =>
  written.map((field) => presentMetafield(tableGet(state.tables.metafields, field.id) ?? field));

/** The metafield routes of one resource type. */
export const metafieldRoutes = <const R extends ResourceType>(resourceType: R) =>
  [
    {
      method: 'POST',
      path: `/${resourceType}/metafields.json`,
      body: createMetafieldsBody,
      errorShape: 'single',
      run: ({ tx, body }) => {
        const input = decodeInput(createMetafieldsList, body, 'metafields');
        if (!input.ok) return input;
        const names = new FieldNames(tx, resourceType);
        let count = metafieldIds(tx, resourceType).length;
        const written: Metafield[] = [];
        for (const item of input.value.metafields) {
          const field = createMetafield(tx, names, { ...metafieldInput(item), name: item.name }, count);
          if (!field.ok) return field;
          written.push(field.value);
          count += 1;
        }
        return reply(201, presentAll(written));
      },
    },
    {
      method: 'GET',
      path: `/${resourceType}/metafields.json`,
      query: ['name', 'direction', ...PAGING_QUERY],
      errorShape: 'single',
      run: ({ tx, query }) => {
        const page = paging(query);
        if (!page.ok) return page;
        const desc = descending(query);
        if (!desc.ok) return desc;
        const name = query.get('name');
        const names = new FieldNames(tx, resourceType);
        const fields: Metafield[] =
          name === undefined || name === ''
            ? metafieldIds(tx, resourceType).flatMap((id) => tx.get('metafields', id) ?? [])
            : [names.get(name.trim())].flatMap((field) => field ?? []);
        if (desc.value) fields.reverse();
        const shown = pageOf(fields, page.value.page, page.value.perPage);
        return reply(200, () => ({
          ...pageFigures(fields.length, page.value.page, page.value.perPage),
          metafields: shown.map(presentMetafield),
        }));
      },
    },
    {
      method: 'PUT',
      path: `/${resourceType}/metafields.json`,
      body: updateMetafieldsBody,
      errorShape: 'single',
      run: ({ tx, body }) => {
        const input = decodeInput(updateMetafieldsList, body, 'metafields');
        if (!input.ok) return input;
        const names = new FieldNames(tx, resourceType);
        const written: Metafield[] = [];
        for (const item of input.value.metafields) {
          const current = item.current_name ?? item.name;
          if (current === undefined) return err(invalid('name_required', 'name: is required', 'name'));
          const field = names.get(current);
          if (field === undefined) return err(missing('Metafield'));
          const updated = updateMetafield(tx, names, field, metafieldInput(item));
          if (!updated.ok) return updated;
          written.push(updated.value);
        }
        return reply(200, presentAll(written));
      },
    },
    {
      method: 'DELETE',
      path: `/${resourceType}/metafields.json`,
      query: ['name'],
      errorShape: 'single',
      run: ({ tx, query }) => {
        const names = new FieldNames(tx, resourceType);
        const name = query.get('name')?.trim() ?? '';
        const field = name === '' ? undefined : names.get(name);
        if (field === undefined) return err(missing('Metafield'));
        deleteMetafield(tx, names, field);
        return reply(200);
      },
    },
  ] as const satisfies readonly Route[];
