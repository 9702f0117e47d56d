/**
 * A subscription's components: list those it holds (every component it allocated or used) and read one
 * (a component it never used reads as nothing allocated at its default price point).
 */

import type { SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import { isRecurringKind } from '../../domain/catalog/component-rules.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { emptyRow, findRow, rowsOf, wireQuantity } from '../../engine/allocation/rows.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet } from '../../kernel/collection.js';
import { isPositive } from '../../kernel/money.js';
import { err } from '../../kernel/result.js';
import { missing, stamp } from '../common.js';
import { findComponent } from '../component/components-present.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';

export function presentSubscriptionComponent(
  state: SiteState,
  subscription: Subscription,
  component: Component,
  row: SubscriptionComponent,
) {
  const point = tableGet(state.tables.componentPricePoints, row.pricePointId);
  const family = tableGet(state.tables.productFamilies, component.productFamilyId);
  const custom = row.customPrice;
  const unitBalance =
    component.kind === 'metered_component'
      ? row.unitBalance
      : component.kind === 'prepaid_usage_component'
        ? row.quantity
        : '0';
  return {
    id: component.id,
    name: component.name,
    kind: component.kind,
    unit_name: component.unitName,
    enabled: component.kind === 'on_off_component' && isPositive(row.quantity),
    unit_balance: Number(unitBalance),
    currency: state.settings.currency,
    allocated_quantity: wireQuantity(component.kind === 'metered_component' ? '0' : row.quantity),
    pricing_scheme: custom?.pricingScheme ?? point?.pricingScheme ?? null,
    component_id: component.id,
    component_handle: component.handle,
    subscription_id: subscription.id,
    recurring: isRecurringKind(component.kind),
    upgrade_charge: component.upgradeCharge,
    downgrade_credit: component.downgradeCredit,
    archived_at: stamp(state, component.archivedAt),
    price_point_id: row.pricePointId,
    price_point_handle: custom === null ? (point?.handle ?? null) : null,
    price_point_type: custom === null ? (point?.type ?? 'default') : 'custom',
    price_point_name: custom === null ? (point?.name ?? null) : 'Custom',
    product_family_id: component.productFamilyId,
    product_family_handle: family?.handle ?? null,
    created_at: stamp(state, row.id === 0 ? component.createdAt : row.createdAt),
    updated_at: stamp(state, row.id === 0 ? component.updatedAt : row.updatedAt),
    use_site_exchange_rate: point?.useSiteExchangeRate ?? true,
    description: component.description,
    allow_fractional_quantities: component.allowFractionalQuantities,
    display_on_hosted_page: component.displayOnHostedPage,
    interval: point?.interval ?? subscription.interval,
    interval_unit: point?.intervalUnit ?? subscription.intervalUnit,
  };
}

export const subscriptionComponentRoutes = [
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/components.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const held = [...rowsOf(tx, subscription.id)].sort((a, b) => a.componentId - b.componentId);
      return reply(200, (state) =>
        held.flatMap((row) => {
          const component = tableGet(state.tables.components, row.componentId);
          return component === undefined
            ? []
            : [{ component: presentSubscriptionComponent(state, subscription, component, row) }];
        }),
      );
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/components/{component_id}.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const component = findComponent(tx, params['component_id'] ?? '');
      if (component === undefined) return err(missing('Component'));
      const row = findRow(tx, subscription.id, component.id) ?? emptyRow(tx, subscription, component);
      return reply(200, (state) => ({
        component: presentSubscriptionComponent(state, subscription, component, row),
      }));
    },
  },
] as const satisfies readonly Route[];
