/** Pricing schemes: the cost of a quantity under a price point, and prepaid overage. */
export { bracketFloor, containingBracket, validateBrackets } from './brackets.js';
export { type OverageCost, type OveragePricing, priceOverage } from './overage.js';
export { priceQuantity } from './price-quantity.js';
export {
  type BracketCharge,
  isPricingScheme,
  PRICING_SCHEMES,
  type PriceBracket,
  type PricingError,
  type PricingErrorCode,
  type PricingScheme,
  pricingError,
  type QuantityCost,
} from './types.js';
