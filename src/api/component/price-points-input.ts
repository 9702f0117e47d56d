/**
 * The pricing fields that components, component price points and segments share: decoded from the wire,
 * merged over what a price point already has, validated by the pricing domain, and given price ids.
 */

import type {
  ComponentKind,
  ComponentPrice,
  ComponentPricePoint,
  PrepaidPricing,
} from '../../domain/catalog/component.js';
import { fillStarts, pricingMessage, resolvePriceList } from '../../domain/catalog/component-rules.js';
import { PRICING_SCHEMES, type PriceBracket, type PricingScheme } from '../../domain/pricing/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { cmp, type Dec } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type DecodeFailure, decode, z, zBool, zDecimal, zId, zInt } from '../decode.js';
import { errorResponse, fieldErrors } from '../errors.js';
import type { RouteError } from '../route.js';

/** A validation problem with the request field it concerns. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

export const problem = (field: string, message: string): FieldProblem => ({ field, message });

/** A problem as `{errors: ["field: message"]}`. */
export const asList = (found: FieldProblem): RouteError => ({
  response: errorResponse(422, `${found.field}: ${found.message}`),
});

/** A problem as `{errors: {field: ["message"]}}`. */
export const asFieldMap = (found: FieldProblem): RouteError =>
  fieldErrors({ [found.field]: [found.message] });

/** Decodes a body; failures become `{errors: {field: [...]}}` with the envelope left out of the names. */
export function decodeFields<T>(
  schema: z.ZodType<T>,
  body: unknown,
  envelope: string,
): Result<T, RouteError> {
  const decoded = decode(schema, body ?? {});
  return decoded.ok ? ok(decoded.value) : err(fieldErrors(withoutEnvelope(decoded.error, envelope)));
}

/** Field names of a decoding failure without the leading `envelope.`. */
export function withoutEnvelope(failure: DecodeFailure, envelope: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(failure)) {
    const name = field.startsWith(`${envelope}.`) ? field.slice(envelope.length + 1) : field;
    fields[name] = [...(fields[name] ?? []), ...messages];
  }
  return fields;
}

const zQuantity = () => zDecimal({ maxIntegerDigits: 12, maxScale: 10 });
const zUnitPrice = () => zDecimal({ maxIntegerDigits: 12, maxScale: 10 });

/** A price as a request sends it; a missing starting quantity follows the previous bracket. */
export const zPrice = () =>
  z.object({
    starting_quantity: zQuantity().optional(),
    ending_quantity: zQuantity().nullish(),
    unit_price: zUnitPrice(),
  });

/** A price in an update: an existing one by id (changed, or removed with `_destroy`), or a new one. */
const zPriceUpdate = () =>
  z.object({
    id: zId().optional(),
    starting_quantity: zQuantity().optional(),
    ending_quantity: zQuantity().nullish(),
    unit_price: zUnitPrice().optional(),
    _destroy: zBool().optional(),
  });

export const zScheme = () =>
  z.enum(PRICING_SCHEMES, {
    error: (issue) =>
      issue.input === undefined ? 'is required' : `must be one of ${PRICING_SCHEMES.join(', ')}`,
  });
const MAX_PRICES = 100;

/** The pricing fields of a price point request (create and update alike; all optional here). */
export const pricingFields = () => ({
  pricing_scheme: zScheme().optional(),
  prices: z.array(zPriceUpdate()).max(MAX_PRICES, `can hold at most ${MAX_PRICES} prices`).optional(),
  unit_price: zUnitPrice().optional(),
  tax_included: zBool().optional(),
  use_site_exchange_rate: zBool().optional(),
  interval: zInt(1, 10_000).nullish(),
  interval_unit: z.enum(['day', 'month']).nullish(),
  overage_pricing: z
    .object({
      pricing_scheme: zScheme(),
      prices: z.array(zPrice()).max(MAX_PRICES, `can hold at most ${MAX_PRICES} prices`).optional(),
      unit_price: zUnitPrice().optional(),
    })
    .optional(),
  renew_prepaid_allocation: zBool().optional(),
  rollover_prepaid_remainder: zBool().optional(),
  expiration_interval: zInt(1, 10_000).nullish(),
  expiration_interval_unit: z.enum(['day', 'month', 'never']).nullish(),
});

const pricingObject = z.object(pricingFields());
export type PricingInput = z.output<typeof pricingObject>;
type PriceUpdate = NonNullable<PricingInput['prices']>[number];

/** The pricing part of a component price point. */
export type Pricing = Pick<
  ComponentPricePoint,
  'pricingScheme' | 'prices' | 'taxIncluded' | 'useSiteExchangeRate' | 'interval' | 'intervalUnit' | 'prepaid'
>;

/** Gives every bracket an id: its own when it keeps one, else the next from the site's counter. */
export const withIds = (
  tx: Transaction,
  brackets: readonly (PriceBracket & { readonly id?: number | undefined })[],
): ComponentPrice[] =>
  brackets.map((bracket) => ({
    id: bracket.id ?? tx.next('prices'),
    startingQuantity: bracket.startingQuantity,
    endingQuantity: bracket.endingQuantity,
    unitPrice: bracket.unitPrice,
  }));

/** Merges sent price updates over current brackets: by id (change or `_destroy`), new ones added. */
function mergePrices(
  current: readonly ComponentPrice[],
  updates: readonly PriceUpdate[],
): Result<(PriceBracket & { id?: number })[], FieldProblem> {
  const merged = new Map<number, PriceBracket & { id?: number }>(current.map((price) => [price.id, price]));
  const added: { startingQuantity?: Dec; endingQuantity: Dec | null; unitPrice: Dec }[] = [];
  for (const [index, update] of updates.entries()) {
    if (update.id === undefined) {
      if (update.unit_price === undefined)
        return err(problem(`prices.${index}.unit_price`, 'is required for a new price'));
      added.push({
        ...(update.starting_quantity === undefined ? {} : { startingQuantity: update.starting_quantity }),
        endingQuantity: update.ending_quantity ?? null,
        unitPrice: update.unit_price,
      });
      continue;
    }
    const existing = merged.get(update.id);
    if (existing === undefined)
      return err(problem(`prices.${index}.id`, 'is not a price of this price point'));
    if (update._destroy === true) {
      merged.delete(update.id);
      continue;
    }
    merged.set(update.id, {
      id: update.id,
      startingQuantity: update.starting_quantity ?? existing.startingQuantity,
      endingQuantity: update.ending_quantity === undefined ? existing.endingQuantity : update.ending_quantity,
      unitPrice: update.unit_price ?? existing.unitPrice,
    });
  }
  const kept = [...merged.values()];
  const last = kept.reduce<PriceBracket | undefined>(
    (found, price) =>
      found === undefined || cmp(price.startingQuantity, found.startingQuantity) > 0 ? price : found,
    undefined,
  );
  const filled = fillStarts(last === undefined ? added : [last, ...added]).slice(last === undefined ? 0 : 1);
  return ok([...kept, ...filled].sort((a, b) => cmp(a.startingQuantity, b.startingQuantity)));
}

/** Validates a price list for a scheme, naming the field at fault under `prefix`. */
export function priceList(
  scheme: PricingScheme,
  prices: readonly PriceBracket[] | undefined,
  unitPrice: Dec | undefined,
  prefix = '',
): Result<readonly PriceBracket[], FieldProblem> {
  const list = resolvePriceList(scheme, prices, unitPrice);
  return list.ok ? list : err(problem(`${prefix}${list.error.field}`, pricingMessage(list.error)));
}

/**
 * The pricing of a price point of a component kind: on create (`current` undefined) the scheme and its
 * prices are required; on update what is not sent is kept. Prepaid components need overage pricing.
 */
export function resolvePricing(
  tx: Transaction,
  kind: ComponentKind,
  input: PricingInput,
  current: ComponentPricePoint | undefined,
): Result<Pricing, FieldProblem> {
  const scheme =
    input.pricing_scheme ?? current?.pricingScheme ?? (kind === 'on_off_component' ? 'per_unit' : undefined);
  if (scheme === undefined) return err(problem('pricing_scheme', 'is required'));
  if (kind === 'on_off_component' && scheme !== 'per_unit')
    return err(problem('pricing_scheme', 'must be per_unit for an on/off component'));
  let brackets: (PriceBracket & { id?: number })[] | undefined;
  if (input.prices !== undefined) {
    // On create there is nothing to refer to: ids and `_destroy` are ignored.
    const updates =
      current === undefined
        ? input.prices.map(({ id: _id, _destroy: _gone, ...price }) => price)
        : input.prices;
    const merged = mergePrices(current?.prices ?? [], updates);
    if (!merged.ok) return merged;
    brackets = merged.value;
  } else if (input.unit_price === undefined) {
    brackets = current === undefined ? undefined : [...current.prices];
  }
  const list = priceList(scheme, brackets, input.unit_price);
  if (!list.ok) return list;
  const interval = input.interval === undefined ? (current?.interval ?? null) : input.interval;
  const intervalUnit =
    input.interval_unit === undefined ? (current?.intervalUnit ?? null) : input.interval_unit;
  if ((interval === null) !== (intervalUnit === null))
    return err(
      problem(interval === null ? 'interval' : 'interval_unit', 'is required with the other interval field'),
    );
  const prices = withIds(tx, list.value);
  const prepaid =
    kind === 'prepaid_usage_component' ? resolvePrepaid(tx, input, current?.prepaid ?? null) : ok(null);
  if (!prepaid.ok) return prepaid;
  return ok({
    pricingScheme: scheme,
    prices,
    taxIncluded: input.tax_included ?? current?.taxIncluded ?? false,
    useSiteExchangeRate: input.use_site_exchange_rate ?? current?.useSiteExchangeRate ?? true,
    interval,
    intervalUnit,
    prepaid: prepaid.value,
  });
}

function resolvePrepaid(
  tx: Transaction,
  input: PricingInput,
  current: PrepaidPricing | null,
): Result<PrepaidPricing, FieldProblem> {
  const overage = input.overage_pricing;
  if (overage === undefined && current === null) return err(problem('overage_pricing', 'is required'));
  let overageScheme = current?.overagePricingScheme ?? 'per_unit';
  let overagePrices: readonly ComponentPrice[] = current?.overagePrices ?? [];
  if (overage !== undefined) {
    const list = priceList(
      overage.pricing_scheme,
      overage.prices === undefined ? undefined : fillStarts(overage.prices.map(toBracketInput)),
      overage.unit_price,
      'overage_pricing.',
    );
    if (!list.ok) return list;
    overageScheme = overage.pricing_scheme;
    overagePrices = withIds(tx, list.value);
  }
  const unit =
    input.expiration_interval_unit === undefined
      ? (current?.expirationIntervalUnit ?? null)
      : input.expiration_interval_unit;
  const sentInterval =
    input.expiration_interval === undefined
      ? (current?.expirationInterval ?? null)
      : input.expiration_interval;
  const expirationInterval = unit === 'never' ? null : sentInterval;
  if (expirationInterval !== null && unit === null)
    return err(problem('expiration_interval_unit', 'is required with an expiration interval'));
  if (expirationInterval === null && (unit === 'day' || unit === 'month'))
    return err(problem('expiration_interval', `is required with the unit ${unit}`));
  return ok({
    overagePricingScheme: overageScheme,
    overagePrices,
    renewPrepaidAllocation: input.renew_prepaid_allocation ?? current?.renewPrepaidAllocation ?? false,
    rolloverPrepaidRemainder: input.rollover_prepaid_remainder ?? current?.rolloverPrepaidRemainder ?? false,
    expirationInterval,
    expirationIntervalUnit: unit,
  });
}

/** A decoded request price as the input of `fillStarts`. */
export const toBracketInput = (price: z.output<ReturnType<typeof zPrice>>) => ({
  ...(price.starting_quantity === undefined ? {} : { startingQuantity: price.starting_quantity }),
  endingQuantity: price.ending_quantity ?? null,
  unitPrice: price.unit_price,
});
