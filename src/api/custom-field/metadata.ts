/** The custom field values of one subscription or customer: set, list, change and remove. */
import { valueProblem } from '../../domain/custom-field/rules.js';
import type { Metadatum, Metafield, ResourceType } from '../../domain/custom-field/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import { createMetafield, FieldNames, metafieldIds } from '../../engine/custom-field/fields.js';
import { ResourceValues, removeValue, setValue } from '../../engine/custom-field/values.js';
import { listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { missing, PAGING_QUERY, pageOf, paging } from '../common.js';
import { type Route, reply } from '../route.js';
import {
  createMetadataBody,
  createMetadataList,
  decodeInput,
  MAX_ITEMS,
  updateMetadataBody,
} from './input.js';
import { pageFigures, presentMetadatum } from './present.js';
import { findResource } from './resource.js';

/** The fields and values one request reads and writes for one resource. */
interface Session {
  readonly tx: Transaction;
  readonly names: FieldNames;
  readonly values: ResourceValues;
  /** How many metafields the resource type has, those this request created included. */
  count: number;
}

function session(tx: Transaction, resourceType: ResourceType, resourceId: number): Session {
  return {
    tx,
    names: new FieldNames(tx, resourceType),
    values: new ResourceValues(tx, resourceType, resourceId),
    count: metafieldIds(tx, resourceType).length,
  };
}

/** The metafield of a name, created as a text field when the resource type has none of that name. */
function fieldNamed(s: Session, name: string): Result<Metafield, DomainError> {
  const existing = s.names.get(name);
  if (existing !== undefined) return ok(existing);
  const created = createMetafield(s.tx, s.names, { name }, s.count);
  if (created.ok) s.count += 1;
  return created;
}

/** Sets a value under a name, after checking the field takes it. */
function setNamed(s: Session, name: string, value: string): Result<Metadatum, DomainError> {
  const field = fieldNamed(s, name);
  if (!field.ok) return field;
  const problem = valueProblem(field.value, value);
  if (problem !== undefined) return err(problem);
  return ok(setValue(s.tx, s.values, field.value, value));
}

/** The rows written, as the state after the request has them. */
const presentAll = (written: readonly Metadatum[]) => (state: SiteState) =>
  written.map((row) => presentMetadatum(state, tableGet(state.tables.metadata, row.id) ?? row));

/** The metadata routes of one resource type. */
export const metadataRoutes = <const R extends ResourceType>(resourceType: R) =>
  [
    {
      method: 'POST',
      path: `/${resourceType}/{resource_id}/metadata.json`,
      body: createMetadataBody,
      errorShape: 'single',
      run: ({ tx, params, body }) => {
        const resource = findResource(tx, resourceType, params['resource_id'] ?? '');
        if (!resource.ok) return resource;
        const input = decodeInput(createMetadataList, body, 'metadata');
        if (!input.ok) return input;
        const s = session(tx, resourceType, resource.value);
        const written: Metadatum[] = [];
        for (const item of input.value.metadata) {
          const row = setNamed(s, item.name, item.value);
          if (!row.ok) return row;
          written.push(row.value);
        }
        return reply(201, presentAll(written));
      },
    },
    {
      method: 'GET',
      path: `/${resourceType}/{resource_id}/metadata.json`,
      query: PAGING_QUERY,
      errorShape: 'single',
      run: ({ tx, params, query }) => {
        const resource = findResource(tx, resourceType, params['resource_id'] ?? '');
        if (!resource.ok) return resource;
        const page = paging(query);
        if (!page.ok) return page;
        const rows = listedRows(
          tx.state,
          'resourceMetadata',
          `${resourceType}/${resource.value}`,
          'metadata',
        ).filter((row) => row.deletedAt === null);
        const shown = pageOf(rows, page.value.page, page.value.perPage);
        return reply(200, (state) => ({
          ...pageFigures(rows.length, page.value.page, page.value.perPage),
          metadata: shown.map((row) => presentMetadatum(state, row)),
        }));
      },
    },
    {
      method: 'PUT',
      path: `/${resourceType}/{resource_id}/metadata.json`,
      body: updateMetadataBody,
      errorShape: 'single',
      run: ({ tx, params, body }) => {
        const resource = findResource(tx, resourceType, params['resource_id'] ?? '');
        if (!resource.ok) return resource;
        const input = decodeInput(updateMetadataBody, body);
        if (!input.ok) return input;
        const { current_name: currentName, name, value } = input.value.metadata;
        const s = session(tx, resourceType, resource.value);
        let kept = value;
        // A value moved from one field to another leaves the first.
        if (currentName !== undefined && currentName !== name) {
          const from = s.names.get(currentName);
          const row = from === undefined ? undefined : s.values.live(from.id);
          if (row === undefined) return err(missing('Metadata'));
          kept ??= row.value;
          removeValue(tx, row);
        }
        if (kept === undefined) return err(invalid('value_required', 'value: is required', 'value'));
        const row = setNamed(s, name, kept);
        return row.ok ? reply(200, presentAll([row.value])) : row;
      },
    },
    {
      method: 'DELETE',
      path: `/${resourceType}/{resource_id}/metadata.json`,
      query: ['name', 'names'],
      errorShape: 'single',
      run: ({ tx, params, query }) => {
        const resource = findResource(tx, resourceType, params['resource_id'] ?? '');
        if (!resource.ok) return resource;
        const single = query.get('name')?.trim();
        const asked = new Set([...query.list('names'), ...(single ? [single] : [])]);
        if (asked.size > MAX_ITEMS)
          return err(invalid('too_many_names', `names: at most ${MAX_ITEMS} names at once`, 'names'));
        const s = session(tx, resourceType, resource.value);
        let removed = 0;
        for (const name of asked) {
          const field = s.names.get(name);
          const row = field === undefined ? undefined : s.values.live(field.id);
          if (row === undefined) continue;
          s.values.wrote(removeValue(tx, row));
          removed += 1;
        }
        if (removed === 0) return err(missing('Metadata'));
        return reply(200, () => true);
      },
    },
  ] as const satisfies readonly Route[];
