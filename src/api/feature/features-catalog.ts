/**
 * Feature catalog items: a template attached with a value to a product or a
 * component, optionally scoped to one of its price points. The same operations under
 * `/products/{product_id}/features…` and `/components/{component_id}/features…`: create, list, read,
 * update the value or periodicity, archive (`DELETE`, 204) and restore (422 while the template is
 * archived). One active item per owner, template and price point.
 */

import { type DomainError, invalid } from '../../domain/errors.js';
import { checkPeriodicity, normalizeFeatureValue, PERIODICITY_UNITS } from '../../domain/feature/rules.js';
import type { CatalogFeature, FeatureOwnerType, FeatureTemplate } from '../../domain/feature/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { parseId } from '../../kernel/ids.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, findRef, missing } from '../common.js';
import { z, zBool, zId, zInt, zText } from '../decode.js';
import { type Route, type RouteContext, type RouteResult, reply } from '../route.js';
import { oneCatalogFeature, presentCatalogFeature } from './features-present.js';

interface Owner {
  readonly type: FeatureOwnerType;
  readonly id: number;
}

const OWNERS = [
  { type: 'product', plural: 'products', param: 'product_id', label: 'Product' },
  { type: 'component', plural: 'components', param: 'component_id', label: 'Component' },
] as const;

type OwnerKind = (typeof OWNERS)[number];

const valueField = z.union([zText(1000), z.number(), z.boolean()]).nullish();
const periodicityFields = {
  periodicity_interval: zInt(1, 100_000).nullish(),
  periodicity_unit: z.enum(PERIODICITY_UNITS).nullish(),
  propagate_to_subscriptions: zBool().optional(),
};
const createBody = z.object({
  feature: z.object({
    feature_template_id: zId().optional(),
    value: valueField,
    price_point_type: z.enum(['ProductPricePoint', 'PricePoint']).nullish(),
    price_point_id: zId().nullish(),
    ...periodicityFields,
  }),
});
const updateBody = z.object({ feature: z.object({ value: valueField, ...periodicityFields }) });

const STOPPED_STATES = new Set(['canceled', 'expired', 'failed_to_create']);

function findOwner(tx: Transaction, kind: OwnerKind, ref: string): Owner | undefined {
  const row =
    kind.type === 'product'
      ? findRef(tx, 'products', ref, 'productHandles')
      : findRef(tx, 'components', ref, 'componentHandles');
  return row === undefined ? undefined : { type: kind.type, id: row.id };
}

/** The price point scope of a new item: the owner's own price point, of the owner's type. */
function readPricePoint(
  tx: Transaction,
  owner: Owner,
  type: 'ProductPricePoint' | 'PricePoint' | null | undefined,
  id: number | null | undefined,
): Result<Pick<CatalogFeature, 'pricePointType' | 'pricePointId'>, DomainError> {
  if (id == null) {
    return type == null
      ? ok({ pricePointType: null, pricePointId: null })
      : err(
          invalid(
            'price_point_id_required',
            'Price point id: is required with a price point type.',
            'price_point_id',
          ),
        );
  }
  const expected = owner.type === 'product' ? 'ProductPricePoint' : 'PricePoint';
  const belongs =
    owner.type === 'product'
      ? tx.get('productPricePoints', id)?.productId === owner.id
      : tx.get('componentPricePoints', id)?.componentId === owner.id;
  if ((type != null && type !== expected) || !belongs)
    return err(
      invalid(
        'unknown_price_point',
        `Price point: is not a price point of this ${owner.type}.`,
        'price_point_id',
      ),
    );
  return ok({ pricePointType: expected, pricePointId: id });
}

function readValue(template: FeatureTemplate, raw: string | number | boolean | null | undefined) {
  const given = raw ?? template.defaultValue;
  if (given === null) return err(invalid('value_required', 'Value: is required.', 'value'));
  const value = normalizeFeatureValue(template.valueType, given);
  return value.ok ? value : err(invalid('invalid_value', `Value: ${value.error}.`, 'value'));
}

/** Refuses a second active item for the same owner, template and price point. */
function duplicate(tx: Transaction, item: CatalogFeature): DomainError | undefined {
  for (const other of tx.rows('catalogFeatures')) {
    if (
      other.id !== item.id &&
      other.archivedAt === null &&
      other.ownerType === item.ownerType &&
      other.ownerId === item.ownerId &&
      other.templateId === item.templateId &&
      other.pricePointId === item.pricePointId
    )
      return invalid(
        'duplicate_feature',
        `Feature: is already in this ${item.ownerType}'s catalog.`,
        'feature',
      );
  }
  return undefined;
}

function create(context: RouteContext, owner: Owner) {
  const { tx } = context;
  const input = decodeBody(createBody, context.body);
  if (!input.ok) return input;
  const fields = input.value.feature;
  const templateId = fields.feature_template_id;
  const template = templateId === undefined ? undefined : tx.get('featureTemplates', templateId);
  if (template === undefined)
    return err(
      invalid('unknown_template', 'Feature template: must name a feature template.', 'feature_template_id'),
    );
  if (template.archivedAt !== null)
    return err(invalid('archived_template', 'Feature template: is archived.', 'feature_template_id'));
  const value = readValue(template, fields.value);
  if (!value.ok) return value;
  const sent = fields.periodicity_interval != null || fields.periodicity_unit != null;
  const interval = sent ? (fields.periodicity_interval ?? null) : template.defaultPeriodicityInterval;
  const unit = sent ? (fields.periodicity_unit ?? null) : template.defaultPeriodicityUnit;
  const periodicity = checkPeriodicity(template.kind, interval, unit, 'periodicity', true);
  if (periodicity) return err(periodicity);
  const scope = readPricePoint(tx, owner, fields.price_point_type, fields.price_point_id);
  if (!scope.ok) return scope;
  const item: CatalogFeature = {
    id: tx.nextId('catalogFeatures'),
    templateId: template.id,
    ownerType: owner.type,
    ownerId: owner.id,
    value: value.value,
    periodicityInterval: interval,
    periodicityUnit: unit,
    ...scope.value,
    archivedAt: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  };
  const taken = duplicate(tx, item);
  if (taken) return err(taken);
  return reply(201, oneCatalogFeature(tx.put('catalogFeatures', item)));
}

function update(context: RouteContext, item: CatalogFeature, template: FeatureTemplate) {
  const { tx } = context;
  if (item.archivedAt !== null)
    return err(
      invalid('archived_feature', 'Feature: is archived; restore it before changing it.', 'feature'),
    );
  const input = decodeBody(updateBody, context.body);
  if (!input.ok) return input;
  const fields = input.value.feature;
  const value = fields.value === undefined ? ok(item.value) : readValue(template, fields.value);
  if (!value.ok) return value;
  const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);
  const interval = keep(fields.periodicity_interval, item.periodicityInterval);
  const unit = keep(fields.periodicity_unit, item.periodicityUnit);
  const periodicity = checkPeriodicity(template.kind, interval, unit, 'periodicity', true);
  if (periodicity) return err(periodicity);
  const updated = tx.put('catalogFeatures', {
    ...item,
    value: value.value,
    periodicityInterval: interval,
    periodicityUnit: unit,
    updatedAt: tx.now,
  });
  return reply(200, oneCatalogFeature(updated));
}

function restore(context: RouteContext, item: CatalogFeature, template: FeatureTemplate) {
  const { tx } = context;
  if (template.archivedAt !== null)
    return err(
      invalid('template_archived', 'Feature template is archived: restore it first.', 'feature_template_id'),
    );
  if (item.archivedAt === null) return reply(200, oneCatalogFeature(item));
  const restored = { ...item, archivedAt: null, updatedAt: tx.now };
  const taken = duplicate(tx, restored);
  if (taken) return err(taken);
  return reply(200, oneCatalogFeature(tx.put('catalogFeatures', restored)));
}

function subscriptionsCount(tx: Transaction, owner: Owner): number {
  if (owner.type !== 'product') return 0;
  let count = 0;
  for (const subscription of tableRows(tx.state.tables.subscriptions))
    if (subscription.productId === owner.id && !STOPPED_STATES.has(subscription.state)) count += 1;
  return count;
}

function withOwner<T>(
  context: RouteContext,
  kind: OwnerKind,
  then: (owner: Owner) => RouteResult<T>,
): RouteResult<T> {
  const owner = findOwner(context.tx, kind, context.params[kind.param] ?? '');
  return owner === undefined ? err(missing(kind.label)) : then(owner);
}

type ItemThen<T> = (item: CatalogFeature, template: FeatureTemplate) => RouteResult<T>;

function withItem<T>(context: RouteContext, kind: OwnerKind, then: ItemThen<T>): RouteResult<T> {
  return withOwner(context, kind, (owner) => {
    const id = parseId(context.params['id'] ?? '');
    const item = id === undefined ? undefined : context.tx.get('catalogFeatures', id);
    if (item === undefined || item.ownerType !== owner.type || item.ownerId !== owner.id)
      return err(missing('Feature'));
    const template = context.tx.get('featureTemplates', item.templateId);
    return template === undefined ? err(missing('Feature template')) : then(item, template);
  });
}

/** A catalog feature's routes under one kind of owner, typed with their own paths. */
function routesOf<const Base extends string>(kind: OwnerKind, base: Base) {
  return [
    {
      method: 'POST',
      path: `${base}.json`,
      body: createBody,
      run: (c) => withOwner(c, kind, (owner) => create(c, owner)),
    },
    {
      method: 'GET',
      path: `${base}.json`,
      run: (c) =>
        withOwner(c, kind, (owner) => {
          const items = [...c.tx.rows('catalogFeatures')].filter(
            (item) => item.ownerType === owner.type && item.ownerId === owner.id,
          );
          const subscriptions = subscriptionsCount(c.tx, owner);
          return reply(200, (state) => ({
            features: items.map((item) => presentCatalogFeature(state, item)),
            subscriptions_count: subscriptions,
          }));
        }),
    },
    {
      method: 'GET',
      path: `${base}/{id}.json`,
      run: (c) => withItem(c, kind, (item) => reply(200, oneCatalogFeature(item))),
    },
    {
      method: 'PUT',
      path: `${base}/{id}.json`,
      body: updateBody,
      run: (c) => withItem(c, kind, (item, t) => update(c, item, t)),
    },
    {
      method: 'DELETE',
      path: `${base}/{id}.json`,
      run: (c) =>
        withItem(c, kind, (item) => {
          if (item.archivedAt === null)
            c.tx.put('catalogFeatures', { ...item, archivedAt: c.tx.now, updatedAt: c.tx.now });
          return reply(204);
        }),
    },
    {
      method: 'POST',
      path: `${base}/{id}/restore.json`,
      run: (c) => withItem(c, kind, (item, t) => restore(c, item, t)),
    },
  ] as const satisfies readonly Route[];
}

const [PRODUCT, COMPONENT] = OWNERS;
export const catalogFeatureRoutes = [
  ...routesOf(PRODUCT, '/products/{product_id}/features'),
  ...routesOf(COMPONENT, '/components/{component_id}/features'),
] as const;
