/**
 * Feature templates: create, read, update, archive (`DELETE`, 204) and restore.
 * An archived template answers 404 to read, update and archive until it is restored. `key` never changes;
 * `kind` and `value_type` are fixed once a catalog item uses the template.
 */

import { invalid } from '../../domain/errors.js';
import {
  checkTemplate,
  FEATURE_KINDS,
  FEATURE_VALUE_TYPES,
  PERIODICITY_UNITS,
  valueTypeOf,
} from '../../domain/feature/rules.js';
import type { FeatureTemplate } from '../../domain/feature/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet, tableRows } from '../../kernel/collection.js';
import { parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zInt, zText } from '../decode.js';
import { type Route, type RouteContext, type RouteResult, reply } from '../route.js';
import { oneTemplate } from './features-present.js';

const templateFields = {
  name: zText().optional(),
  description: zText(10_000).nullish(),
  kind: z.enum(FEATURE_KINDS).optional(),
  unit: zText().nullish(),
  value_type: z.enum(FEATURE_VALUE_TYPES).optional(),
  default_value: z.union([zText(1000), z.number(), z.boolean()]).nullish(),
  default_periodicity_interval: zInt(1, 100_000).nullish(),
  default_periodicity_unit: z.enum(PERIODICITY_UNITS).nullish(),
};

const createBody = z.object({ feature: z.object({ key: zText(100).optional(), ...templateFields }) });
/** `key` is read as anything, only to refuse it. */
const updateBody = z.object({ feature: z.object({ key: z.unknown().optional(), ...templateFields }) });

const textOrNull = (value: string | number | boolean | null | undefined) =>
  value === undefined || value === null ? value : String(value);

/** A template by id, archived or not. */
export const findTemplate = (tx: Transaction, ref: string): FeatureTemplate | undefined => {
  const id = parseId(ref);
  return id === undefined ? undefined : tx.get('featureTemplates', id);
};

/** Whether any catalog item (archived too) was made from a template. */
const inCatalog = (tx: Transaction, templateId: number): boolean => {
  for (const item of tx.rows('catalogFeatures')) if (item.templateId === templateId) return true;
  return false;
};

function withActiveTemplate<T>(
  context: RouteContext,
  then: (template: FeatureTemplate) => RouteResult<T>,
): RouteResult<T> {
  const template = findTemplate(context.tx, context.params['id'] ?? '');
  if (template === undefined || template.archivedAt !== null) return err(missing('Feature'));
  return then(template);
}

function create({ tx, body }: RouteContext) {
  const input = decodeBody(createBody, body);
  if (!input.ok) return input;
  const fields = input.value.feature;
  const key = fields.key?.trim() ?? '';
  if (key === '') return err(invalid('blank_key', 'Key: cannot be blank.', 'key'));
  if (indexGet(tx.state.indexes.featureTemplateKeys, key) !== undefined)
    return err(invalid('key_taken', 'Key: must be unique - that value has been taken.', 'key'));
  if (fields.kind === undefined) return err(invalid('kind_required', 'Kind: is required.', 'kind'));
  const valueType = valueTypeOf(fields.kind, fields.value_type);
  if (valueType === undefined)
    return err(
      invalid('value_type_required', 'Value type: is required for service_right features.', 'value_type'),
    );
  const checked = checkTemplate({
    id: tx.nextId('featureTemplates'),
    key,
    name: fields.name ?? '',
    description: fields.description ?? null,
    kind: fields.kind,
    unit: fields.unit ?? null,
    valueType,
    defaultValue: textOrNull(fields.default_value) ?? null,
    defaultPeriodicityInterval: fields.default_periodicity_interval ?? null,
    defaultPeriodicityUnit: fields.default_periodicity_unit ?? null,
    archivedAt: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
  if (!checked.ok) return checked;
  return reply(201, oneTemplate(tx.put('featureTemplates', checked.value)));
}

function update(context: RouteContext, template: FeatureTemplate) {
  const { tx } = context;
  const input = decodeBody(updateBody, context.body);
  if (!input.ok) return input;
  const fields = input.value.feature;
  if (fields.key !== undefined) return err(invalid('key_immutable', 'Key: cannot be changed.', 'key'));
  const kind = fields.kind ?? template.kind;
  const valueType = valueTypeOf(kind, fields.value_type ?? template.valueType) ?? template.valueType;
  if ((kind !== template.kind || valueType !== template.valueType) && inCatalog(tx, template.id)) {
    const field = kind !== template.kind ? 'Kind' : 'Value type';
    return err(
      invalid(
        'in_catalog',
        `${field}: cannot be changed once the feature is in a catalog.`,
        field.toLowerCase(),
      ),
    );
  }
  const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);
  const checked = checkTemplate({
    ...template,
    name: fields.name ?? template.name,
    description: keep(fields.description, template.description),
    kind,
    unit: keep(fields.unit, template.unit),
    valueType,
    defaultValue: keep(textOrNull(fields.default_value), template.defaultValue),
    defaultPeriodicityInterval: keep(
      fields.default_periodicity_interval,
      template.defaultPeriodicityInterval,
    ),
    defaultPeriodicityUnit: keep(fields.default_periodicity_unit, template.defaultPeriodicityUnit),
    updatedAt: tx.now,
  });
  if (!checked.ok) return checked;
  return reply(200, oneTemplate(tx.put('featureTemplates', checked.value)));
}

/** Archives a template; with `remove_from_catalog=true` its active catalog items too. */
function archive(context: RouteContext, template: FeatureTemplate) {
  const { tx } = context;
  tx.put('featureTemplates', { ...template, archivedAt: tx.now, updatedAt: tx.now });
  if (context.query.get('remove_from_catalog') === 'true') {
    for (const item of [...tableRows(tx.state.tables.catalogFeatures)]) {
      const current = tx.get('catalogFeatures', item.id);
      if (current?.templateId === template.id && current.archivedAt === null)
        tx.put('catalogFeatures', { ...current, archivedAt: tx.now, updatedAt: tx.now });
    }
  }
  return reply(204);
}

export const featureTemplateRoutes = [
  { method: 'POST', path: '/features.json', body: createBody, run: create },
  {
    method: 'GET',
    path: '/features/{id}.json',
    run: (context) => withActiveTemplate(context, (template) => reply(200, oneTemplate(template))),
  },
  {
    method: 'PUT',
    path: '/features/{id}.json',
    body: updateBody,
    run: (context) => withActiveTemplate(context, (template) => update(context, template)),
  },
  {
    method: 'DELETE',
    path: '/features/{id}.json',
    query: ['remove_from_catalog'],
    run: (context) => withActiveTemplate(context, (template) => archive(context, template)),
  },
  {
    method: 'POST',
    path: '/features/{id}/restore.json',
    run: ({ tx, params }) => {
      const template = findTemplate(tx, params['id'] ?? '');
      if (template === undefined) return err(missing('Feature'));
      const restored =
        template.archivedAt === null
          ? template
          : tx.put('featureTemplates', { ...template, archivedAt: null, updatedAt: tx.now });
      return reply(200, oneTemplate(restored));
    },
  },
] as const satisfies readonly Route[];
