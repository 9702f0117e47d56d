/** Product migration and its preview. */

import type { Subscription } from '../../domain/subscription/types.js';
import { previewRenewal } from '../../engine/renewal/preview.js';
import { type MigrationOptions, migrate, previewMigration } from '../../engine/subscription/migration.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { parseTimestamp } from '../../kernel/time.js';
import { decodeBody, findRef, missing, stamp } from '../common.js';
import { findComponent } from '../component/components-present.js';
import { z, zBool, zDecimal, zIdOrHandle, zText } from '../decode.js';
import { type Route, type RouteError, reply } from '../route.js';
import { selectProduct } from './product-selection.js';
import { presentSubscription } from './subscription-present.js';
import { findSubscription } from './subscriptions.js';

const migrationFields = {
  product_id: zIdOrHandle().optional(),
  product_handle: zText().optional(),
  product_price_point_id: zIdOrHandle().optional(),
  product_price_point_handle: zText().optional(),
  include_trial: zBool().optional(),
  include_initial_charge: zBool().optional(),
  include_coupons: zBool().optional(),
  preserve_period: zBool().optional(),
  proration: z.object({ preserve_period: zBool().optional() }).optional(),
  proration_date: zText(40).optional(),
};
const migrationBody = z.object({ migration: z.object(migrationFields) });
type MigrationFields = z.infer<typeof migrationBody>['migration'];

const invalid = (message: string, field: string): RouteError => ({
  code: 'invalid_migration',
  status: 422,
  message,
  field,
});

function resolveOptions(tx: Transaction, fields: MigrationFields): Result<MigrationOptions, RouteError> {
  const selection = selectProduct(tx, fields);
  if (!selection.ok) return err(invalid(selection.error.message, selection.error.field));
  const { product, pricePoint } = selection.value;
  return ok({
    product,
    pricePoint,
    includeTrial: fields.include_trial ?? false,
    includeInitialCharge: fields.include_initial_charge ?? false,
    includeCoupons: fields.include_coupons ?? true,
    preservePeriod: fields.preserve_period ?? fields.proration?.preserve_period ?? false,
  });
}

const actionLink = (tx: Transaction, subscription: Subscription) =>
  `https://${tx.settings.subdomain}.billing-core.local/3d-secure/${subscription.id}`;

export const migrationRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/migrations.json',
    body: migrationBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(migrationBody, body);
      if (!input.ok) return input;
      const options = resolveOptions(tx, input.value.migration);
      if (!options.ok) return options;
      const migrated = migrate(tx, subscription, options.value, gateway, actionLink(tx, subscription));
      if (!migrated.ok) return migrated;
      return reply(200, (state) => ({
        subscription: presentSubscription(state, migrated.value.subscription),
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/migrations/preview.json',
    body: migrationBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(migrationBody, body);
      if (!input.ok) return input;
      const options = resolveOptions(tx, input.value.migration);
      if (!options.ok) return options;
      let at = tx.now;
      if (input.value.migration.proration_date !== undefined) {
        const parsed = parseTimestamp(input.value.migration.proration_date, tx.settings.timeZone);
        if (!parsed.ok) return err(invalid('Proration date: must be a timestamp.', 'proration_date'));
        if (
          parsed.value < subscription.currentPeriodStartedAt ||
          parsed.value >= subscription.currentPeriodEndsAt
        ) {
          return err(invalid('Proration date: must be within the current billing period.', 'proration_date'));
        }
        at = parsed.value;
      }
      const preview = previewMigration(tx, subscription, options.value, at);
      if (!preview.ok) return preview;
      return reply(200, () => ({ migration: preview.value }));
    },
  },
] as const satisfies readonly Route[];

const renewalPreviewBody = z.object({
  components: z
    .array(
      z.object({
        component_id: zIdOrHandle(),
        quantity: zDecimal({ allowNegative: false, maxScale: 4 }),
        price_point_id: zIdOrHandle().optional(),
      }),
    )
    .max(1000)
    .optional(),
});

/** The renewal preview: the next renewal at current or custom quantities, with no side effects. */
export const renewalPreviewRoute = {
  method: 'POST',
  path: '/subscriptions/{subscription_id}/renewals/preview.json',
  body: renewalPreviewBody,
  run: ({ tx, params, body }) => {
    const subscription = findSubscription(tx, params['subscription_id'] ?? '');
    if (subscription === undefined) return err(missing('Subscription'));
    const input = decodeBody(renewalPreviewBody, body);
    if (!input.ok) return input;
    const custom = [];
    for (const entry of input.value.components ?? []) {
      const component = findComponent(tx, entry.component_id);
      if (component === undefined)
        return err(invalid(`Component ${entry.component_id}: not found.`, 'components'));
      const pricePoint =
        entry.price_point_id === undefined
          ? undefined
          : findRef(
              tx,
              'componentPricePoints',
              entry.price_point_id,
              'componentPricePointHandles',
              (handle) => `${component.id}/${handle}`,
            );
      if (
        entry.price_point_id !== undefined &&
        (pricePoint === undefined || pricePoint.componentId !== component.id)
      ) {
        return err(invalid(`Price point ${entry.price_point_id}: not found.`, 'components'));
      }
      custom.push({
        componentId: component.id,
        quantity: entry.quantity,
        pricePointId: pricePoint?.id ?? null,
      });
    }
    const preview = previewRenewal(tx, subscription, custom);
    if (preview === undefined) return err(invalid('The subscription has no next renewal.', 'base'));
    return reply(200, (state) => ({
      renewal_preview: { ...preview, next_assessment_at: stamp(state, preview.next_assessment_at) },
    }));
  },
} as const satisfies Route;
