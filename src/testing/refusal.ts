/**
 * What a refused request may change: nothing it asked for. What fell due
 * by its `now` is performed and kept, so a refusal returns the state `advance` would reach at that instant,
 * and the very same state object when nothing fell due.
 */
import type { HandleResult } from '../api/types.js';
import { advance } from '../engine/advance.js';
import type { SiteState } from '../engine/state.js';

/**
 * The ways a refused request's result breaks that rule (an empty list when it keeps it, or when the
 * request was not refused). Compare only with the gateway the request ran with (the test gateway here).
 * @example expect(checkRefusal(state, handle(state, request, { now }), now)).toEqual([])
 */
export function checkRefusal(before: SiteState, result: HandleResult, now: string): string[] {
  if (result.response.status < 400) return [];
  if (result.state === before)
    return result.events.length > 0 || result.changes.length > 0
      ? ['a refusal that changed nothing recorded events or changes']
      : [];
  const advanced = advance(before, { now });
  const violations: string[] = [];
  if (JSON.stringify(result.state) !== JSON.stringify(advanced.state))
    violations.push('a refusal changed the state beyond what fell due by its instant');
  if (JSON.stringify(result.events) !== JSON.stringify(advanced.events))
    violations.push('a refusal recorded events beyond what fell due by its instant');
  return violations;
}
