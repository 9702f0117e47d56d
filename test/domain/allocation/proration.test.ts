import { describe, expect, it } from 'vitest';
import {
  capCredit,
  creditable,
  LEGACY_UPGRADE_SCHEMES,
  legacyDowngrade,
  legacyDowngradeName,
  legacyUpgrade,
  legacyUpgradeName,
  prorate,
  remainingShare,
  resolveSetting,
  rollUp,
} from '../../../src/domain/allocation/index.js';

const period = { start: '2026-01-15T12:00:00.000Z', end: '2026-02-15T12:00:00.000Z' };

describe('proration', () => {
  it('measures the remaining share of the period in whole seconds, clamped to the period', () => {
    expect(remainingShare(period, '2026-01-25T12:00:00.000Z')).toEqual({
      remaining: 21 * 86_400,
      length: 31 * 86_400,
    });
    expect(remainingShare(period, '2026-02-15T11:59:59.400Z')).toEqual({ remaining: 0, length: 2_678_400 });
    expect(remainingShare(period, '2026-01-01T00:00:00.000Z').remaining).toBe(2_678_400);
    expect(remainingShare(period, '2026-03-01T00:00:00.000Z').remaining).toBe(0);
  });

  it('charges the difference in full, not at all, or for the remaining share, rounded half-up once', () => {
    const middle = '2026-01-25T12:00:00.000Z';
    expect(prorate('30', 'prorated', period, middle, 'USD')).toBe('20.32');
    expect(prorate('-30', 'prorated', period, middle, 'USD')).toBe('-20.32');
    expect(prorate('30', 'full', period, middle, 'USD')).toBe('30');
    expect(prorate('30', 'none', period, middle, 'USD')).toBe('0');
    expect(prorate('0.015', 'full', period, middle, 'USD')).toBe('0.02');
    expect(prorate('-0.015', 'full', period, middle, 'USD')).toBe('-0.02');
    expect(prorate('31', 'prorated', period, middle, 'JPY')).toBe('21');
    expect(prorate('300000', 'prorated', period, '2026-02-15T11:59:59.000Z', 'USD')).toBe('0.11');
  });

  it('caps credits at what is creditable and lets charges through', () => {
    expect(creditable('100', '30')).toBe('70');
    expect(creditable('10', '30')).toBe('0');
    expect(capCredit('-80', '50')).toBe('-50');
    expect(capCredit('-20', '50')).toBe('-20');
    expect(capCredit('20', '0')).toBe('20');
  });

  it('takes the first setting given, else the fallback', () => {
    expect(resolveSetting([undefined, null, 'none', 'full'], 'prorated')).toBe('none');
    expect(resolveSetting([undefined, null], 'prorated')).toBe('prorated');
    expect(resolveSetting([false, true], true)).toBe(false);
  });

  it('rolls amounts up into a direction, falling back to the cost differences', () => {
    expect(rollUp(['10', '-4'], ['12', '-5'])).toBe('upgrade');
    expect(rollUp(['1', '-4'], ['12', '-5'])).toBe('downgrade');
    expect(rollUp(['0'], ['-3'])).toBe('downgrade');
    expect(rollUp(['0'], ['0'])).toBe('upgrade');
  });

  it('reads and names the legacy schemes', () => {
    expect(LEGACY_UPGRADE_SCHEMES.map(legacyUpgrade)).toEqual([
      { upgradeCharge: 'prorated', accrueCharge: false },
      { upgradeCharge: 'prorated', accrueCharge: true },
      { upgradeCharge: 'full', accrueCharge: false },
      { upgradeCharge: 'full', accrueCharge: true },
      { upgradeCharge: 'none', accrueCharge: false },
    ]);
    for (const scheme of LEGACY_UPGRADE_SCHEMES) {
      const { upgradeCharge, accrueCharge } = legacyUpgrade(scheme);
      expect(legacyUpgradeName(upgradeCharge, accrueCharge)).toBe(scheme);
    }
    expect(legacyDowngrade('prorate')).toBe('prorated');
    expect(legacyDowngrade('no-prorate')).toBe('none');
    expect(legacyDowngradeName('full')).toBe('prorate');
    expect(legacyDowngradeName('none')).toBe('no-prorate');
  });
});
