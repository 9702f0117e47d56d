/**
 * `subscription.components` of a signup (the official CreateSubscriptionComponent): each entry names a
 * component by id or `handle:`, with `allocated_quantity` (or the deprecated `quantity`), `enabled`
 * (on/off), `unit_balance` (metered) and `price_point_id`. Decoded here and resolved to catalog rows; the
 * engine checks what each kind takes (signup-components.ts).
 */

import type { DomainError } from '../../domain/errors.js';
import type { SignupComponent } from '../../engine/allocation/signup-components.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { findComponent, findComponentPricePoint } from '../component/components-present.js';
import { z, zBool, zDecimal, zIdOrHandle } from '../decode.js';

const MAX_COMPONENTS = 500;
const zQuantity = () => zDecimal({ maxIntegerDigits: 12, maxScale: 10 });

export const signupComponentsSchema = z
  .array(
    z.object({
      component_id: zIdOrHandle().nullish(),
      allocated_quantity: zQuantity().nullish(),
      quantity: zQuantity().nullish(),
      enabled: zBool().nullish(),
      unit_balance: zQuantity().nullish(),
      price_point_id: zIdOrHandle().nullish(),
      custom_price: z.unknown().optional(),
    }),
  )
  .max(MAX_COMPONENTS, `can hold at most ${MAX_COMPONENTS} components`);

type SignupComponentFields = z.output<typeof signupComponentsSchema>;

const refused = (field: string, message: string): DomainError => ({
  code: 'signup_component_refused',
  status: 422,
  message: `${field}: ${message}`,
  field,
});

/**
 * The entries with their components and price points found, or a 422 naming the field that is wrong.
 * @example resolveSignupComponents(tx, [{ component_id: 'handle:seats', allocated_quantity: '5' }])
 */
export function resolveSignupComponents(
  tx: Transaction,
  entries: SignupComponentFields,
): Result<SignupComponent[], DomainError> {
  const resolved: SignupComponent[] = [];
  for (const [index, fields] of entries.entries()) {
    const field = `subscription.components.${index}`;
    if (fields.component_id == null) return err(refused(`${field}.component_id`, 'is required.'));
    const component = findComponent(tx, fields.component_id);
    if (component === undefined)
      return err(refused(`${field}.component_id`, `component ${fields.component_id} not found.`));
    const pricePoint =
      fields.price_point_id == null
        ? undefined
        : findComponentPricePoint(tx, component, fields.price_point_id);
    if (fields.price_point_id != null && pricePoint === undefined)
      return err(
        refused(
          `${field}.price_point_id`,
          `price point ${fields.price_point_id} not found for the component.`,
        ),
      );
    if (fields.custom_price !== undefined && fields.custom_price !== null)
      return err(
        refused(
          `${field}.custom_price`,
          'is not supported at signup; allocate the component with a custom_price once subscribed.',
        ),
      );
    const { allocated_quantity: allocated, quantity } = fields;
    if (allocated != null && quantity != null && allocated !== quantity)
      return err(refused(`${field}.quantity`, `disagrees with allocated_quantity ${allocated}.`));
    resolved.push({
      field,
      component,
      pricePoint,
      quantity: allocated ?? quantity ?? undefined,
      enabled: fields.enabled ?? undefined,
      unitBalance: fields.unit_balance ?? undefined,
    });
  }
  return ok(resolved);
}
