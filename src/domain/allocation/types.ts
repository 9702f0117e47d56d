/**
 * The records of component allocations: what a subscription holds of each component, every allocation
 * made, the metered usage recorded, and the charges an allocation left for the next renewal.
 */
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';
import type { PriceBracket, PricingScheme } from '../pricing/types.js';
import type { CreditType } from '../site/config.js';

/** A price a subscription pays for a component instead of its price point's (`custom_price`). */
export interface CustomPrice {
  readonly pricingScheme: PricingScheme;
  /** Validated brackets; a per_unit price holds exactly one (`1–∞ @ unit price`). */
  readonly prices: readonly PriceBracket[];
  readonly taxIncluded: boolean;
}

/** A charge an allocation accrued: billed as its own line on the next renewal invoice. */
export interface AccruedCharge {
  readonly allocationId: number;
  readonly title: string;
  readonly description: string;
  /** Rounded to the currency's minor unit when it was decided. */
  readonly amount: Dec;
  /**
   * How its line shows it (`prorationLine`): the changed units × the share of the period, at the unit
   * price. Charges accrued before lines showed this have none and show 1 × the amount.
   */
  readonly quantity?: Dec;
  readonly unitPrice?: Dec;
  readonly tieredUnitPrice?: boolean;
  readonly kind: string;
  readonly pricePointId: number;
  /** The days of the period the charge was for. */
  readonly periodRangeStart: CalendarDate;
  readonly periodRangeEnd: CalendarDate;
}

/**
 * What a subscription holds of one component: one row per subscription and component, created by the
 * first allocation or usage. The rows of a subscription form a chain from the newest (`previousRowId`),
 * so a renewal reads only its own subscription's rows.
 */
export interface SubscriptionComponent {
  readonly id: number;
  readonly subscriptionId: number;
  readonly componentId: number;
  /** The subscription's row created before this one, or null. */
  readonly previousRowId: number | null;
  /** The allocated quantity (quantity-based, prepaid); 1 or 0 for an on/off component; 0 for metered. */
  readonly quantity: Dec;
  readonly pricePointId: number;
  /** Set by an allocation's `custom_price`; wins over the price point until a price point is chosen again. */
  readonly customPrice: CustomPrice | null;
  /** Metered usage recorded in the current period; the renewal bills it and starts again from 0. */
  readonly unitBalance: Dec;
  /** Charges accrued by allocations, billed on the next renewal invoice. */
  readonly accruedCharges: readonly AccruedCharge[];
  /** The start of the billing period the two amounts below belong to. */
  readonly periodStartedAt: Instant;
  /** What was charged for this component for that period: its renewal line and upgrade charges. */
  readonly periodCharged: Dec;
  /** What downgrades of that period credited; credits never exceed `periodCharged` (see proration.ts). */
  readonly periodCredited: Dec;
  /** The newest allocation of this row (allocations chain back by `previousAllocationId`). */
  readonly latestAllocationId: number | null;
  /** The newest usage of this row (usages chain back by `previousUsageId`). */
  readonly latestUsageId: number | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** The payment an allocation's immediate charge attempted (`PaymentForAllocation`). */
export interface AllocationPayment {
  readonly transactionId: number | null;
  readonly amount: Dec;
  readonly success: boolean;
  readonly memo: string;
}

/** Whether a call's charges and credits rolled up to a charge or a credit. */
export type AllocationDirection = 'upgrade' | 'downgrade';

/** One allocation: a change of a subscription's quantity or price point of a component. */
export interface Allocation {
  readonly id: number;
  readonly subscriptionId: number;
  readonly componentId: number;
  readonly subscriptionComponentId: number;
  /** The same row's allocation before this one, or null. */
  readonly previousAllocationId: number | null;
  readonly quantity: Dec;
  readonly previousQuantity: Dec;
  readonly pricePointId: number;
  readonly previousPricePointId: number;
  readonly customPrice: boolean;
  readonly memo: string | null;
  /** The legacy scheme names, as sent or as derived from the settings applied. */
  readonly prorationUpgradeScheme: string;
  readonly prorationDowngradeScheme: string;
  /** The settings applied, each resolved allocation → component → call → site (accrual call → site). */
  readonly accrueCharge: boolean;
  readonly upgradeCharge: CreditType;
  readonly downgradeCredit: CreditType;
  readonly initiateDunning: boolean;
  readonly direction: AllocationDirection;
  /** This allocation's charge (positive) or credit (negative), rounded; 0 when nothing moved. */
  readonly amount: Dec;
  /** The proration invoice that charged it now, if any. */
  readonly invoiceId: number | null;
  readonly payment: AllocationPayment | null;
  readonly createdAt: Instant;
}

/** Metered usage recorded against a subscription's component (`POST …/usages.json`). */
export interface Usage {
  readonly id: number;
  readonly subscriptionId: number;
  readonly componentId: number;
  readonly subscriptionComponentId: number;
  /** The same row's usage before this one, or null. */
  readonly previousUsageId: number | null;
  readonly quantity: Dec;
  readonly pricePointId: number;
  readonly memo: string | null;
  readonly createdAt: Instant;
}
