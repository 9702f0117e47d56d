/**
 * Proration of component allocations, as pure functions.
 *
 * README, "Billing rules", allocations:
 * - A change's cost difference is `cost(new quantity, new price) − cost(old quantity, old price)` under the
 *   pricing scheme of each price (never the quantity difference): positive is an upgrade, negative a
 *   downgrade. Several allocations of one call roll their charges and credits up into one total whose sign
 *   is the call's direction (a zero total falls back to the sign of the summed cost differences).
 * - `full` charges or credits the whole difference, `none` nothing, `prorated` the remaining share of the
 *   current billing period in whole seconds: difference × (period end − now) / (period end − period
 *   start). The amount is rounded half-up to the currency's minor unit once, per allocation.
 * - A credit never exceeds what is left of what was charged for the component in the same period
 *   (`creditable`), so credits for a period never exceed the charges for it.
 * - `upgrade_charge` and `downgrade_credit` resolve in the order allocation, component, call, site; and
 *   `accrue_charge` in the order call, site (`resolveSetting`). The legacy `proration_upgrade_scheme` and
 *   `proration_downgrade_scheme` names count at the level they were sent at, after the new fields.
 */
import { assertNever } from '../../kernel/invariant.js';
import {
  add,
  cmp,
  type Dec,
  div,
  isNegative,
  isPositive,
  max,
  min,
  mul,
  roundMoney,
  sub,
} from '../../kernel/money.js';
import { type Instant, secondsBetween } from '../../kernel/time.js';
import type { CreditType } from '../site/config.js';
import type { AllocationDirection } from './types.js';

/** A billing period, half-open `[start, end)`. */
export interface BillingPeriod {
  /** Its first instant. */
  readonly start: Instant;
  /** The instant after its last: the next period's start. */
  readonly end: Instant;
}

/**
 * The share of a period left at an instant, in whole seconds: `remaining / length`, clamped to the period.
 * @example remainingShare({ start: '2026-01-01T00:00:00Z', end: '2026-01-31T00:00:00Z' }, '2026-01-16T00:00:00Z')
 * // { remaining: 1296000, length: 2592000 }
 */
export function remainingShare(
  period: BillingPeriod,
  at: Instant,
): {
  /** The seconds from `at` to the period's end (0 after it, the whole length before it). */
  remaining: number;
  /** The period's length in seconds. */
  length: number;
} {
  const length = Math.max(0, secondsBetween(period.start, period.end));
  const remaining = Math.min(length, Math.max(0, secondsBetween(at, period.end)));
  return { remaining, length };
}

/**
 * The amount a cost difference charges (positive) or credits (negative) under a credit type at an instant
 * of the current period, rounded half-up (away from zero) to the currency's minor unit once.
 * @example
 * const period = { start: '2026-01-01T00:00:00Z', end: '2026-01-31T00:00:00Z' };
 * prorate('30', 'prorated', period, '2026-01-16T00:00:00Z', 'USD') // '15'
 * prorate('-10', 'full', period, '2026-01-16T00:00:00Z', 'USD') // '-10'
 * prorate('10', 'none', period, '2026-01-16T00:00:00Z', 'USD') // '0'
 */
export function prorate(
  difference: Dec,
  scheme: CreditType,
  period: BillingPeriod,
  at: Instant,
  currency: string,
): Dec {
  switch (scheme) {
    case 'none':
      return '0';
    case 'full':
      return roundMoney(difference, currency);
    case 'prorated': {
      const { remaining, length } = remainingShare(period, at);
      if (length === 0) return roundMoney(difference, currency);
      return roundMoney(div(mul(difference, String(remaining)), String(length)), currency);
    }
    default:
      return assertNever(scheme);
  }
}

/**
 * What a credit may still take from a period's charges: charged − already credited, never below 0.
 * @example creditable('100', '30') // '70'
 */
export const creditable = (charged: Dec, credited: Dec): Dec => max('0', sub(charged, credited));

/**
 * A credit (a negative amount) limited to what is creditable; charges pass unchanged.
 * @example capCredit('-80', '50') // '-50'
 * @example capCredit('20', '0') // '20'
 */
export const capCredit = (amount: Dec, available: Dec): Dec =>
  isNegative(amount) ? sub('0', min(sub('0', amount), available)) : amount;

/**
 * The first setting given, in resolution order, else the fallback (the site default).
 * @example resolveSetting([undefined, 'none', 'full'], 'prorated') // 'none'
 */
export function resolveSetting<T>(levels: readonly (T | null | undefined)[], fallback: T): T {
  for (const level of levels) if (level !== undefined && level !== null) return level;
  return fallback;
}

/**
 * The direction of a call: the sign of its rolled-up amounts, else of its summed cost differences, else up.
 * @example rollUp(['10', '-4'], ['12', '-5']) // 'upgrade'
 * @example rollUp(['0'], ['-3']) // 'downgrade'
 */
export function rollUp(amounts: readonly Dec[], differences: readonly Dec[]): AllocationDirection {
  const total = amounts.reduce(add, '0');
  if (cmp(total, '0') !== 0) return isPositive(total) ? 'upgrade' : 'downgrade';
  return isNegative(differences.reduce(add, '0')) ? 'downgrade' : 'upgrade';
}

/** The legacy upgrade scheme names (`proration_upgrade_scheme`). */
export const LEGACY_UPGRADE_SCHEMES = [
  'prorate-attempt-capture',
  'prorate-delay-capture',
  'full-price-attempt-capture',
  'full-price-delay-capture',
  'no-prorate',
] as const;
/** A legacy upgrade scheme name (`proration_upgrade_scheme`). */
export type LegacyUpgradeScheme = (typeof LEGACY_UPGRADE_SCHEMES)[number];

/** The legacy downgrade scheme names (`proration_downgrade_scheme`). */
export const LEGACY_DOWNGRADE_SCHEMES = ['prorate', 'no-prorate'] as const;
/** A legacy downgrade scheme name (`proration_downgrade_scheme`). */
export type LegacyDowngradeScheme = (typeof LEGACY_DOWNGRADE_SCHEMES)[number];

/**
 * What a legacy upgrade scheme means: the upgrade charge and whether it accrues (`delay-capture`).
 * @example legacyUpgrade('prorate-delay-capture') // { upgradeCharge: 'prorated', accrueCharge: true }
 */
export function legacyUpgrade(scheme: LegacyUpgradeScheme): {
  /** How an increase is charged. */
  upgradeCharge: CreditType;
  /** Whether the charge waits for the next renewal (`delay-capture`) instead of being collected now. */
  accrueCharge: boolean;
} {
  if (scheme === 'no-prorate') return { upgradeCharge: 'none', accrueCharge: false };
  return {
    upgradeCharge: scheme.startsWith('full-price') ? 'full' : 'prorated',
    accrueCharge: scheme.endsWith('delay-capture'),
  };
}

/** What a legacy downgrade scheme means. @example legacyDowngrade('prorate') // 'prorated' */
export const legacyDowngrade = (scheme: LegacyDowngradeScheme): CreditType =>
  scheme === 'prorate' ? 'prorated' : 'none';

/**
 * The legacy name of an upgrade charge and accrual, for echoing when none was sent.
 * @example legacyUpgradeName('full', false) // 'full-price-attempt-capture'
 */
export function legacyUpgradeName(upgradeCharge: CreditType, accrueCharge: boolean): LegacyUpgradeScheme {
  if (upgradeCharge === 'none') return 'no-prorate';
  const capture = accrueCharge ? 'delay-capture' : 'attempt-capture';
  return upgradeCharge === 'full' ? `full-price-${capture}` : `prorate-${capture}`;
}

/** The legacy name of a downgrade credit. @example legacyDowngradeName('none') // 'no-prorate' */
export const legacyDowngradeName = (downgradeCredit: CreditType): LegacyDowngradeScheme =>
  downgradeCredit === 'none' ? 'no-prorate' : 'prorate';
