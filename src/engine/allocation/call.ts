/** What an allocation call asks for: its changes and the settings sent with them. */

import type { LegacyDowngradeScheme, LegacyUpgradeScheme } from '../../domain/allocation/proration.js';
import type { CustomPrice } from '../../domain/allocation/types.js';
import type { Component, ComponentPricePoint } from '../../domain/catalog/component.js';
import type { CreditType } from '../../domain/site/config.js';
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

/** One change of a call, its references already resolved. */
export interface AllocationChange {
  readonly component: Component;
  readonly quantity: Dec;
  readonly previousQuantity?: Dec | undefined;
  /** A price point to move to; absent keeps the current one. */
  readonly pricePoint?: ComponentPricePoint | undefined;
  readonly customPrice?: CustomPrice | undefined;
  readonly memo?: string | null | undefined;
  readonly upgradeCharge?: CreditType | null | undefined;
  readonly downgradeCredit?: CreditType | null | undefined;
  readonly prorationUpgradeScheme?: LegacyUpgradeScheme | undefined;
  readonly prorationDowngradeScheme?: LegacyDowngradeScheme | undefined;
  readonly initiateDunning?: boolean | undefined;
}

/** A call: its changes and its top-level settings. */
export interface AllocationCall {
  readonly changes: readonly AllocationChange[];
  readonly upgradeCharge?: CreditType | null | undefined;
  readonly downgradeCredit?: CreditType | null | undefined;
  readonly prorationUpgradeScheme?: LegacyUpgradeScheme | undefined;
  readonly prorationDowngradeScheme?: LegacyDowngradeScheme | undefined;
  readonly accrueCharge?: boolean | null | undefined;
  readonly initiateDunning?: boolean | undefined;
  /** The instant the call is prorated at; `tx.now` when absent. */
  readonly at?: Instant | undefined;
}
