/** How feature templates and catalog items look on the wire, envelope `feature`. */

import type { CatalogFeature, FeatureTemplate } from '../../domain/feature/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet, tableRows } from '../../kernel/collection.js';
import { stamp } from '../common.js';

/** How many components and products a template is attached to through active catalog items. */
export interface TemplateCounts {
  readonly components: number;
  readonly products: number;
}

/** The counts of every template (one pass over the catalog). */
export function templateCounts(state: SiteState): ReadonlyMap<number, TemplateCounts> {
  const owners = new Map<number, { components: Set<number>; products: Set<number> }>();
  for (const item of tableRows(state.tables.catalogFeatures)) {
    if (item.archivedAt !== null) continue;
    const entry = owners.get(item.templateId) ?? {
      components: new Set<number>(),
      products: new Set<number>(),
    };
    (item.ownerType === 'component' ? entry.components : entry.products).add(item.ownerId);
    owners.set(item.templateId, entry);
  }
  const counts = new Map<number, TemplateCounts>();
  for (const [id, entry] of owners)
    counts.set(id, { components: entry.components.size, products: entry.products.size });
  return counts;
}

/**
 * The `feature` object of a template. `products_count` counts components and `plans_count` products,
 * as the official API names them.
 */
export function presentFeatureTemplate(state: SiteState, template: FeatureTemplate, counts?: TemplateCounts) {
  const found = counts ?? templateCounts(state).get(template.id);
  return {
    id: template.id,
    key: template.key,
    name: template.name,
    description: template.description,
    kind: template.kind,
    unit: template.unit,
    value_type: template.valueType,
    default_value: template.defaultValue,
    default_periodicity_interval: template.defaultPeriodicityInterval,
    default_periodicity_unit: template.defaultPeriodicityUnit,
    archived_at: stamp(state, template.archivedAt),
    created_at: stamp(state, template.createdAt),
    updated_at: stamp(state, template.updatedAt),
    products_count: found?.components ?? 0,
    plans_count: found?.products ?? 0,
  };
}

/** The `feature` object of a catalog item. */
export function presentCatalogFeature(state: SiteState, item: CatalogFeature) {
  const template = tableGet(state.tables.featureTemplates, item.templateId);
  return {
    id: item.id,
    feature_template_id: item.templateId,
    feature_key: template?.key ?? null,
    feature_name: template?.name ?? null,
    feature_kind: template?.kind ?? null,
    value: item.value,
    periodicity_interval: item.periodicityInterval,
    periodicity_unit: item.periodicityUnit,
    price_point_type: item.pricePointType,
    price_point_id: item.pricePointId,
    archived_at: stamp(state, item.archivedAt),
    created_at: stamp(state, item.createdAt),
    updated_at: stamp(state, item.updatedAt),
  };
}

/** `{feature}` of a template as the state after the request holds it. */
export const oneTemplate = (template: FeatureTemplate) => (state: SiteState) => ({
  feature: presentFeatureTemplate(state, tableGet(state.tables.featureTemplates, template.id) ?? template),
});

/** `{feature}` of a catalog item as the state after the request holds it. */
export const oneCatalogFeature = (item: CatalogFeature) => (state: SiteState) => ({
  feature: presentCatalogFeature(state, tableGet(state.tables.catalogFeatures, item.id) ?? item),
});
