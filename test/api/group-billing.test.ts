/** Group billing (stretch): a group member's renewal invoice is a consolidation child of its group. */
import { describe, expect, it } from 'vitest';
import { get, num, site, str } from '../helpers/api.js';

describe('renewal invoices of group members', () => {
  it("are marked consolidation_level 'child' with the group's id; other invoices stay 'none'", () => {
    const s = site();
    const product = s.product();
    const grouped = s.subscribed(product);
    const alone = s.subscribed(product);
    s.ok('POST', `/subscriptions/${grouped.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
    const uid = str(s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${grouped.id}`), 'uid');
    const groupId = Number.parseInt(uid.slice(4), 36);
    s.advance('2026-02-16T12:00:00Z');
    const [signup, renewal] = s.invoices(grouped.id);
    expect(get(signup, 'consolidation_level')).toBe('none');
    expect(get(renewal, 'role')).toBe('renewal');
    expect(get(renewal, 'consolidation_level')).toBe('child');
    expect(num(renewal, 'subscription_group_id')).toBe(groupId);
    const other = s.invoices(alone.id);
    expect(other.map((invoice) => get(invoice, 'consolidation_level'))).toEqual(['none', 'none']);
  });
});
