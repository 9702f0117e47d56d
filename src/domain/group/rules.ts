/** Pure rules of subscription groups: customer hierarchies and member lists. */

/** Looks up a customer's parent id; undefined when the customer does not exist. */
export type ParentOf = (customerId: number) => number | null | undefined;

/** Hierarchies are acyclic (customers.ts refuses cycles); this bound only guards against broken data. */
const MAX_DEPTH = 10_000;

/**
 * The root (eldest ancestor) of a customer's hierarchy; the customer itself when it has no parent.
 * @example rootCustomer((id) => (id === 2 ? 1 : null), 2) // 1
 */
export function rootCustomer(parentOf: ParentOf, customerId: number): number {
  let current = customerId;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const parent = parentOf(current);
    if (parent === null || parent === undefined) return current;
    current = parent;
  }
  return current;
}

/** Whether two customers are the same customer or in the same hierarchy (share a root). */
export const sameHierarchy = (parentOf: ParentOf, a: number, b: number): boolean =>
  a === b || rootCustomer(parentOf, a) === rootCustomer(parentOf, b);

/**
 * The members an update leaves: the primary first, then the listed ids in order, without repeats.
 * @example nextMembers(1, [3, 1, 3]) // [1, 3]
 */
export function nextMembers(primaryId: number, listed: readonly number[]): number[] {
  const result = [primaryId];
  for (const id of listed) if (!result.includes(id)) result.push(id);
  return result;
}
