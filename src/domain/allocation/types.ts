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
  /** How a quantity is priced under it. */
  readonly pricingScheme: PricingScheme;
  /** Validated brackets; a per_unit price holds exactly one (`1–∞ @ unit price`). */
  readonly prices: readonly PriceBracket[];
  /** Whether its prices include tax. */
  readonly taxIncluded: boolean;
}

/** A charge an allocation accrued: billed as its own line on the next renewal invoice. */
export interface AccruedCharge {
  /** The allocation that accrued it. */
  readonly allocationId: number;
  /** The title of its invoice line. */
  readonly title: string;
  /** The description of its invoice line. */
  readonly description: string;
  /** Rounded to the currency's minor unit when it was decided. */
  readonly amount: Dec;
  /**
   * How its line shows it (`prorationLine`): the changed units × the share of the period, at the unit
   * price. Charges accrued before lines showed this have none and show 1 × the amount.
   */
  readonly quantity?: Dec;
  /** The unit price its line shows (see `quantity`). */
  readonly unitPrice?: Dec;
  /** Whether that unit price blends several brackets' prices. */
  readonly tieredUnitPrice?: boolean;
  /** The line's kind: the component's kind. */
  readonly kind: string;
  /** The price point it was priced at. */
  readonly pricePointId: number;
  /** The days of the period the charge was for. */
  readonly periodRangeStart: CalendarDate;
  /** The last day of the period the charge was for. */
  readonly periodRangeEnd: CalendarDate;
}

/**
 * What a subscription holds of one component: one row per subscription and component, created by the
 * first allocation or usage. The rows of a subscription form a chain from the newest (`previousRowId`),
 * so a renewal reads only its own subscription's rows.
 */
export interface SubscriptionComponent {
  /** The row's id. */
  readonly id: number;
  /** The subscription that holds the component. */
  readonly subscriptionId: number;
  /** The component held. */
  readonly componentId: number;
  /** The subscription's row created before this one, or null. */
  readonly previousRowId: number | null;
  /** The allocated quantity (quantity-based, prepaid); 1 or 0 for an on/off component; 0 for metered. */
  readonly quantity: Dec;
  /** The price point it is priced at. */
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
  /** When the row was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** The payment an allocation's immediate charge attempted (`PaymentForAllocation`). */
export interface AllocationPayment {
  /** The payment's transaction id, or null when none was made. */
  readonly transactionId: number | null;
  /** The amount charged. */
  readonly amount: Dec;
  /** Whether the payment succeeded. */
  readonly success: boolean;
  /** The payment's memo (the gateway's message on a failure). */
  readonly memo: string;
}

/** Whether a call's charges and credits rolled up to a charge or a credit. */
export type AllocationDirection = 'upgrade' | 'downgrade';

/** One allocation: a change of a subscription's quantity or price point of a component. */
export interface Allocation {
  /** The allocation's id. */
  readonly id: number;
  /** The subscription allocated on. */
  readonly subscriptionId: number;
  /** The component allocated. */
  readonly componentId: number;
  /** The subscription's row of that component. */
  readonly subscriptionComponentId: number;
  /** The same row's allocation before this one, or null. */
  readonly previousAllocationId: number | null;
  /** The quantity after this allocation. */
  readonly quantity: Dec;
  /** The quantity before it. */
  readonly previousQuantity: Dec;
  /** The price point after this allocation. */
  readonly pricePointId: number;
  /** The price point before it. */
  readonly previousPricePointId: number;
  /** Whether a custom price applies after it. */
  readonly customPrice: boolean;
  /** The memo sent with it, or null. */
  readonly memo: string | null;
  /** The legacy scheme names, as sent or as derived from the settings applied. */
  readonly prorationUpgradeScheme: string;
  /** The legacy downgrade scheme name, as sent or as derived from the settings applied. */
  readonly prorationDowngradeScheme: string;
  /** The settings applied, each resolved allocation → component → call → site (accrual call → site). */
  readonly accrueCharge: boolean;
  /** How an increase was charged: in full, prorated or not at all. */
  readonly upgradeCharge: CreditType;
  /** How a decrease was credited: in full, prorated or not at all. */
  readonly downgradeCredit: CreditType;
  /** The call's `initiate_dunning` flag, as sent, shown with the allocation. */
  readonly initiateDunning: boolean;
  /** Whether the call's charges and credits summed to a charge (`upgrade`) or a credit (`downgrade`). */
  readonly direction: AllocationDirection;
  /** This allocation's charge (positive) or credit (negative), rounded; 0 when nothing moved. */
  readonly amount: Dec;
  /** The proration invoice that charged it now, if any. */
  readonly invoiceId: number | null;
  /** The payment its immediate charge attempted, or null. */
  readonly payment: AllocationPayment | null;
  /** When it was made. */
  readonly createdAt: Instant;
}

/** Metered usage recorded against a subscription's component (`POST …/usages.json`). */
export interface Usage {
  /** The usage record's id. */
  readonly id: number;
  /** The subscription the usage is recorded on. */
  readonly subscriptionId: number;
  /** The component used. */
  readonly componentId: number;
  /** The subscription's row of that component. */
  readonly subscriptionComponentId: number;
  /** The same row's usage before this one, or null. */
  readonly previousUsageId: number | null;
  /** The quantity used; negative takes usage back (never below 0). */
  readonly quantity: Dec;
  /** The price point in force when it was recorded. */
  readonly pricePointId: number;
  /** The memo sent with it, or null. */
  readonly memo: string | null;
  /** When it was recorded. */
  readonly createdAt: Instant;
}
