/**
 * Offers: a named package of a product at one of its price points, components with the quantities a
 * subscription starts with, and coupons, which a site can archive and bring back.
 */
import type { Dec } from '../../kernel/money.js';
import { isInteger, isNegative, isZero } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';
import type { ComponentKind } from '../catalog/component.js';

/** One component of an offer, at one of its price points. */
export interface OfferComponent {
  /** The component. */
  readonly componentId: number;
  /** Its price point the offer uses (the component's default when the request named none). */
  readonly pricePointId: number;
  /** The quantity a subscription starts with: whole unless the component allows fractions. */
  readonly startingQuantity: Dec;
}

/** An offer of the site. */
export interface Offer {
  /** The offer's id. */
  readonly id: number;
  /** Its name. */
  readonly name: string;
  /** Its handle, unique among the site's offers (archived ones too). */
  readonly handle: string;
  /** Its description, or null. */
  readonly description: string | null;
  /** The product it sells. */
  readonly productId: number;
  /** The product's price point it uses (the product's default when the request named none). */
  readonly productPricePointId: number;
  /** Its components, in the order the request gave them. */
  readonly offerComponents: readonly OfferComponent[];
  /** The coupons it applies, by id, in the order the request gave them. */
  readonly couponIds: readonly number[];
  /** When it was archived, or null while it is offered. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** The most components one offer holds: a package, not a catalog. */
export const MAX_OFFER_COMPONENTS = 100;

/** The most coupons one offer applies. */
export const MAX_OFFER_COUPONS = 20;

/**
 * Why a component of this kind cannot start at this quantity, or null. Quantity-based and prepaid
 * components take any quantity from 0 (whole unless fractions are allowed), on/off components 0 (off) or
 * 1 (on); metered and event-based components bill recorded usage, so they start at 0.
 * @example startingQuantityProblem('on_off_component', '2', false) // 'an on/off component starts at 0 (off) or 1 (on)'
 */
export function startingQuantityProblem(
  kind: ComponentKind,
  quantity: Dec,
  allowFractional: boolean,
): string | null {
  if (isNegative(quantity)) return 'must not be negative';
  if (kind === 'metered_component' || kind === 'event_based_component')
    return isZero(quantity) ? null : `a ${kind} bills its usage, so it starts at 0`;
  if (kind === 'on_off_component')
    return isZero(quantity) || quantity === '1' ? null : 'an on/off component starts at 0 (off) or 1 (on)';
  if (!isInteger(quantity) && !allowFractional) return 'the component does not allow fractional quantities';
  return null;
}
