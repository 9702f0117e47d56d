/**
 * The resolution order of SPEC 4.2, over every combination of its four levels: `upgrade_charge` and
 * `downgrade_credit` come from the allocation, else the component, else the top level of the call, else
 * the site; `accrue_charge` from the top level, else the site. Each combination is checked by the setting
 * the allocation reports and by the money it moves.
 */
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { get } from '../../helpers/api.js';
import {
  allocate,
  allocateMany,
  component,
  creditCents,
  fixture,
  invoicesOf,
  MIDDLE,
  subscribe,
} from './allocation-fixtures.js';

type CreditType = 'full' | 'prorated' | 'none';
const TYPES: readonly CreditType[] = ['full', 'prorated', 'none'];
const LEVELS: readonly (CreditType | undefined)[] = [undefined, ...TYPES];

/** 4 → 8 units at 31: 124 in full, 84 for the 21 of 31 days left. 4 → 1: 93 in full, 63 prorated. */
const UPGRADE: Readonly<Record<CreditType, number>> = { full: 12_400, prorated: 8_400, none: 0 };
const DOWNGRADE: Readonly<Record<CreditType, number>> = { full: 9_300, prorated: 6_300, none: 0 };

const settings = (level: CreditType | undefined) =>
  level === undefined ? {} : { upgrade_charge: level, downgrade_credit: level };

describe('resolution order', () => {
  it('law: upgrade_charge and downgrade_credit resolve allocation, component, call, site, for all 192 combinations each way', () => {
    let checked = 0;
    for (const site of TYPES) {
      for (const own of LEVELS) {
        const config: SiteConfig = { allocationDefaults: { upgradeCharge: site, downgradeCredit: site } };
        const f = fixture(config);
        const seats = component(f, 'quantity_based_component', { unit_price: '31', ...settings(own) });
        const cases = LEVELS.flatMap((allocation) =>
          LEVELS.flatMap((call) =>
            [true, false].map((upward) => {
              const id = subscribe(f);
              allocate(f.s, id, seats, { quantity: 4, upgrade_charge: 'full' });
              return { allocation, call, upward, id };
            }),
          ),
        );
        f.s.at(MIDDLE);
        for (const { allocation, call, upward, id } of cases) {
          const expected = allocation ?? own ?? call ?? site;
          const credit = creditCents(f.s, id);
          const [result] = allocateMany(f.s, id, {
            ...settings(call),
            allocations: [{ component_id: seats, quantity: upward ? 8 : 1, ...settings(allocation) }],
          });
          const label = JSON.stringify({ site, own, call, allocation, upward });
          if (upward) {
            expect(get(result, 'upgrade_charge'), label).toBe(expected);
            expect(get(result, 'payment', 'amount_in_cents') ?? 0, label).toBe(UPGRADE[expected]);
          } else {
            expect(get(result, 'downgrade_credit'), label).toBe(expected);
            expect(creditCents(f.s, id) - credit, label).toBe(DOWNGRADE[expected]);
          }
          checked += 1;
        }
      }
    }
    expect(checked).toBe(3 * 4 * 4 * 4 * 2);
  });

  it('law: accrue_charge resolves call, then site, for every combination', () => {
    for (const site of [false, true]) {
      const f = fixture({ allocationDefaults: { accrueCharge: site } });
      const seats = component(f, 'quantity_based_component', { unit_price: '31' });
      for (const call of [undefined, false, true]) {
        const id = subscribe(f);
        const [result] = allocateMany(f.s, id, {
          ...(call === undefined ? {} : { accrue_charge: call }),
          allocations: [{ component_id: seats, quantity: 2, accrue_charge: !(call ?? site) }],
        });
        const accrued = call ?? site;
        expect(get(result, 'accrue_charge')).toBe(accrued);
        expect(invoicesOf(f.s, id, 'proration')).toHaveLength(accrued ? 0 : 1);
      }
    }
  });
});
