/**
 * Components: create each kind in a product family (with its default price point), read, find by
 * handle, update and archive. Listing is in components-list.ts.
 */

import type { Component, ComponentKind, ComponentPricePoint } from '../../domain/catalog/component.js';
import { defaultUnitName, normalizeTaxCode, taxCodeProblem } from '../../domain/catalog/component-rules.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, findRef, missing } from '../common.js';
import { type Route, type RouteContext, type RouteError, type RouteResult, reply } from '../route.js';
import {
  buildPricePoint,
  type ComponentInput,
  componentHandleProblem,
  createBody,
  decodeCreateBody,
  updateBody,
} from './components-input.js';
import { findComponent, presentComponent } from './components-present.js';
import { asList, problem } from './price-points-input.js';

const findFamily = (tx: Transaction, ref: string) =>
  findRef(tx, 'productFamilies', ref, 'productFamilyHandles');

/** The metric an event-based component bills: it must be one of the site's metrics. Other kinds: null. */
function metricOf(
  tx: Transaction,
  kind: ComponentKind,
  input: ComponentInput,
): Result<number | null, RouteError> {
  if (kind !== 'event_based_component') return ok(null);
  const id = input.event_based_billing_metric_id;
  if (id === undefined) return err(asList(problem('event_based_billing_metric_id', 'is required')));
  if (!tx.settings.metrics.some((metric) => metric.id === id))
    return err(asList(problem('event_based_billing_metric_id', `names no metric of this site (${id})`)));
  return ok(id);
}

/** Writes the price points a create request asks for after the default one (`price_points`). */
function addPricePoints(
  tx: Transaction,
  component: Component,
  input: ComponentInput,
): RouteResult<never> | undefined {
  const taken = new Set<string>();
  for (const [index, fields] of (input.price_points ?? []).entries()) {
    if (fields.name === undefined) return err(asList(problem(`price_points.${index}.name`, 'is required')));
    const built = buildPricePoint(tx, component, fields, fields.name, 'catalog', taken);
    if (!built.ok)
      return err(asList(problem(`price_points.${index}.${built.error.field}`, built.error.message)));
    if (built.value.handle !== null) taken.add(built.value.handle);
    tx.put('componentPricePoints', { id: tx.nextId('componentPricePoints'), ...built.value });
  }
  return undefined;
}

function createComponent(kind: ComponentKind) {
  return ({ tx, params, body }: RouteContext) => {
    const family = findFamily(tx, params['product_family_id'] ?? '');
    if (family === undefined) return err(missing('Product family'));
    const decoded = decodeCreateBody(kind, body);
    if (!decoded.ok) return decoded;
    const input = decoded.value;
    const unitName = input.unit_name ?? defaultUnitName(kind);
    if (unitName === undefined) return err(asList(problem('unit_name', 'is required')));
    const handle = input.handle ?? null;
    const handleProblem = componentHandleProblem(tx, handle, null);
    if (handleProblem) return err(asList(handleProblem));
    const taxable = input.taxable ?? false;
    const taxCode = normalizeTaxCode(input.tax_code);
    const taxProblem = taxCodeProblem(tx.settings.newCatalogExperience, taxable, taxCode);
    if (taxProblem) return err(taxProblem);
    const metric = metricOf(tx, kind, input);
    if (!metric.ok) return metric;
    const id = tx.nextId('components');
    const built = buildPricePoint(tx, { id, kind }, { ...input, handle: null }, 'Default', 'default');
    if (!built.ok) return err(asList(built.error));
    const pricePoint: ComponentPricePoint = { id: tx.nextId('componentPricePoints'), ...built.value };
    tx.put('componentPricePoints', pricePoint);
    const component = tx.put('components', {
      id,
      productFamilyId: family.id,
      kind,
      name: input.name,
      handle,
      description: input.description ?? null,
      unitName,
      taxable,
      taxCode,
      accountingCode: input.accounting_code ?? null,
      itemCategory: input.item_category ?? null,
      hideDateRangeOnInvoice: input.hide_date_range_on_invoice ?? false,
      allowFractionalQuantities: input.allow_fractional_quantities ?? false,
      displayOnHostedPage: input.display_on_hosted_page ?? true,
      upgradeCharge: input.upgrade_charge ?? null,
      downgradeCredit: input.downgrade_credit ?? null,
      eventBasedBillingMetricId: metric.value,
      defaultPricePointId: pricePoint.id,
      archivedAt: null,
      createdAt: tx.now,
      updatedAt: tx.now,
    });
    const extra = addPricePoints(tx, component, input);
    if (extra) return extra;
    return reply(201, (state) => ({ component: presentComponent(state, component) }));
  };
}

/** The component of a path: by id or handle, and inside the path's product family when it names one. */
function withComponent<T>(
  context: RouteContext,
  then: (component: Component) => RouteResult<T>,
): RouteResult<T> {
  const { tx, params } = context;
  const familyRef = params['product_family_id'];
  const family = familyRef === undefined ? undefined : findFamily(tx, familyRef);
  if (familyRef !== undefined && family === undefined) return err(missing('Product family'));
  const component = findComponent(tx, params['component_id'] ?? '');
  if (component === undefined || (family !== undefined && component.productFamilyId !== family.id))
    return err(missing('Component'));
  return then(component);
}

const show = (component: Component) =>
  reply(200, (state) => ({ component: presentComponent(state, component) }));

function updateComponent(context: RouteContext, component: Component) {
  const { tx } = context;
  const decoded = decodeBody(updateBody, context.body);
  if (!decoded.ok) return decoded;
  const input = decoded.value.component;
  const handle = input.handle ?? component.handle;
  const handleProblem = componentHandleProblem(tx, handle, component.id);
  if (handleProblem) return err(asList(handleProblem));
  const taxable = input.taxable ?? component.taxable;
  const taxCode = input.tax_code === undefined ? component.taxCode : normalizeTaxCode(input.tax_code);
  const taxProblem = taxCodeProblem(tx.settings.newCatalogExperience, taxable, taxCode);
  if (taxProblem) return err(taxProblem);
  const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);
  const updated = tx.put('components', {
    ...component,
    name: input.name ?? component.name,
    handle,
    description: keep(input.description, component.description),
    accountingCode: keep(input.accounting_code, component.accountingCode),
    taxable,
    taxCode,
    itemCategory: keep(input.item_category, component.itemCategory),
    displayOnHostedPage: input.display_on_hosted_page ?? component.displayOnHostedPage,
    hideDateRangeOnInvoice: input.hide_date_range_on_invoice ?? component.hideDateRangeOnInvoice,
    allowFractionalQuantities: input.allow_fractional_quantities ?? component.allowFractionalQuantities,
    upgradeCharge: keep(input.upgrade_charge, component.upgradeCharge),
    downgradeCredit: keep(input.downgrade_credit, component.downgradeCredit),
    updatedAt: tx.now,
  });
  return show(updated);
}

/** The create route of one kind of component, typed with its own path. */
function createRoute<const Plural extends string>(kind: ComponentKind, plural: Plural) {
  return {
    method: 'POST',
    path: `/product_families/{product_family_id}/${plural}.json`,
    body: createBody(kind),
    run: createComponent(kind),
  } as const satisfies Route;
}

export const componentRoutes = [
  createRoute('quantity_based_component', 'quantity_based_components'),
  createRoute('on_off_component', 'on_off_components'),
  createRoute('metered_component', 'metered_components'),
  createRoute('prepaid_usage_component', 'prepaid_usage_components'),
  createRoute('event_based_component', 'event_based_components'),

  {
    method: 'GET',
    path: '/components/lookup.json',
    query: ['handle'],
    run: ({ tx, query }) => {
      const handle = query.get('handle');
      if (handle === undefined || handle.trim() === '') return err(asList(problem('handle', 'is required')));
      const component = findComponent(tx, `handle:${handle.trim()}`);
      return component === undefined ? err(missing('Component')) : show(component);
    },
  },
  { method: 'GET', path: '/components/{component_id}.json', run: (c) => withComponent(c, show) },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/components/{component_id}.json',
    run: (c) => withComponent(c, show),
  },
  {
    method: 'PUT',
    path: '/components/{component_id}.json',
    body: updateBody,
    run: (c) => withComponent(c, (component) => updateComponent(c, component)),
  },
  {
    method: 'PUT',
    path: '/product_families/{product_family_id}/components/{component_id}.json',
    body: updateBody,
    run: (c) => withComponent(c, (component) => updateComponent(c, component)),
  },
  {
    method: 'DELETE',
    path: '/product_families/{product_family_id}/components/{component_id}.json',
    run: (context) =>
      withComponent(context, (component) => {
        const { tx } = context;
        const archived =
          component.archivedAt === null
            ? tx.put('components', { ...component, archivedAt: tx.now, updatedAt: tx.now })
            : component;
        // SDK 6.1.0 (`archiveComponent`) reads the archived component without an envelope.
        return reply(200, (state) => presentComponent(state, archived));
      }),
  },
] as const satisfies readonly Route[];
