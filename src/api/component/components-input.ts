/**
 * Component requests: the create body of each kind (its path and envelope), the update body, and how a
 * price point is built from the pricing fields (the default one a component is created with, the ones
 * `price_points` adds, and those created at `/components/{id}/price_points.json`).
 */

import {
  type Component,
  type ComponentKind,
  type ComponentPricePoint,
  type ComponentPricePointType,
  ITEM_CATEGORIES,
} from '../../domain/catalog/component.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, isHandle } from '../common.js';
import { schemaPerKey, z, zBool, zId, zText } from '../decode.js';
import { errorResponse } from '../errors.js';
import type { RouteError } from '../route.js';
import {
  type FieldProblem,
  type PricingInput,
  pricingFields,
  problem,
  resolvePricing,
} from './price-points-input.js';

const zCredit = () => z.enum(['full', 'prorated', 'none']);
const zName = () => zText().trim().min(1, 'cannot be blank');
const MAX_EXTRA_PRICE_POINTS = 50;

/** The fields of a price point request: a name, a handle and the pricing. */
export const pricePointFields = () => ({
  name: zName().optional(),
  handle: zText().nullish(),
  ...pricingFields(),
});

const pricePointObject = z.object(pricePointFields());
export type PricePointInput = z.output<typeof pricePointObject>;

const componentFields = () => ({
  name: zName(),
  unit_name: zName().optional(),
  description: zText(10_000).nullish(),
  handle: zText().nullish(),
  taxable: zBool().optional(),
  tax_code: zText().nullish(),
  accounting_code: zText().nullish(),
  item_category: z.enum(ITEM_CATEGORIES).nullish(),
  hide_date_range_on_invoice: zBool().optional(),
  allow_fractional_quantities: zBool().optional(),
  display_on_hosted_page: zBool().optional(),
  upgrade_charge: zCredit().nullish(),
  downgrade_credit: zCredit().nullish(),
  event_based_billing_metric_id: zId().optional(),
  price_points: z
    .array(z.object(pricePointFields()))
    .max(MAX_EXTRA_PRICE_POINTS, `can hold at most ${MAX_EXTRA_PRICE_POINTS} price points`)
    .optional(),
  ...pricingFields(),
});

const componentObject = z.object(componentFields());
export type ComponentInput = z.output<typeof componentObject>;

/** The body that creates a component of a kind: the component under the kind's key. */
export const createBody = schemaPerKey((kind) => z.object({ [kind]: componentObject }));

/** Decodes the create body of a kind, `{<kind>: {...}}`; failures are a 422 `{errors: [...]}`. */
export function decodeCreateBody(kind: ComponentKind, body: unknown): Result<ComponentInput, RouteError> {
  const decoded = decodeBody(createBody(kind), body);
  if (!decoded.ok) return decoded;
  const input = decoded.value[kind];
  return input === undefined ? err({ response: errorResponse(422, `${kind}: is required`) }) : ok(input);
}

/** The fields of `UpdateComponent`, and the other allocation and display settings. */
export const updateBody = z.object({
  component: z.object({
    name: zName().optional(),
    handle: zText().optional(),
    description: zText(10_000).nullish(),
    accounting_code: zText().nullish(),
    taxable: zBool().optional(),
    tax_code: zText().nullish(),
    item_category: z.enum(ITEM_CATEGORIES).nullish(),
    display_on_hosted_page: zBool().optional(),
    hide_date_range_on_invoice: zBool().optional(),
    allow_fractional_quantities: zBool().optional(),
    upgrade_charge: zCredit().nullish(),
    downgrade_credit: zCredit().nullish(),
  }),
});

const HANDLE_RULE =
  'must start with a letter or number and contain only lowercase letters, numbers, underscores and dashes';

/** A component handle: well formed and not another component's. */
export function componentHandleProblem(
  tx: Transaction,
  handle: string | null,
  selfId: number | null,
): FieldProblem | undefined {
  if (handle === null) return undefined;
  if (!isHandle(handle)) return problem('handle', HANDLE_RULE);
  const owner = indexGet(tx.state.indexes.componentHandles, handle);
  return owner !== undefined && owner !== selfId
    ? problem('handle', 'must be unique - that value has been taken')
    : undefined;
}

/** A price point handle: well formed and unique within its component. */
export function pricePointHandleProblem(
  tx: Transaction,
  componentId: number,
  handle: string | null,
  selfId: number | null,
  taken: ReadonlySet<string> = new Set(),
): FieldProblem | undefined {
  if (handle === null) return undefined;
  if (!isHandle(handle)) return problem('handle', HANDLE_RULE);
  const owner = indexGet(tx.state.indexes.componentPricePointHandles, `${componentId}/${handle}`);
  if ((owner !== undefined && owner !== selfId) || taken.has(handle))
    return problem('handle', 'must be unique - that value has been taken');
  return undefined;
}

/** Builds (without writing) a new price point of a component from a request's pricing fields. */
export function buildPricePoint(
  tx: Transaction,
  component: Pick<Component, 'id' | 'kind'>,
  input: PricingInput & { readonly handle?: string | null | undefined },
  name: string,
  type: ComponentPricePointType,
  taken: ReadonlySet<string> = new Set(),
): Result<Omit<ComponentPricePoint, 'id'>, FieldProblem> {
  const handle = input.handle ?? null;
  const handleProblem = pricePointHandleProblem(tx, component.id, handle, null, taken);
  if (handleProblem) return err(handleProblem);
  const pricing = resolvePricing(tx, component.kind, input, undefined);
  if (!pricing.ok) return pricing;
  return ok({
    componentId: component.id,
    name,
    handle,
    type,
    ...pricing.value,
    archivedAt: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
}
