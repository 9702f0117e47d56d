/**
 * A persistent set of row ids, read in id order a page at a time: what one key of an index lists when
 * that key may hold most of a table (the subscriptions in state `active`, the invoices in status `paid`).
 *
 * A `readonly number[]` per key copies every id of the key on each write: 100,000 ids to add one. Here
 * the ids live in a radix tree over their values. A leaf holds the ids of one block of 256 consecutive
 * values (so at most 256 ids), a branch up to 64 children, the non-empty ones only, each with the count
 * of ids below it. Adding or removing an id copies its leaf (at most 256 ids) and one short branch per
 * level: `height` levels, 2 at 100,000 ids, 3 below 2^26, never more than 7 for safe integers. Paging
 * skips whole children by their counts, so the page of `n` ids from position `p` costs
 * O(64 × height + n), whatever `p` is.
 *
 * The shape depends only on the ids in the set, never on the order in which they came and went: nodes
 * appear on their first id and go on their last, and the height is the least that covers the largest id.
 * So two states holding the same rows serialize alike, however they were reached. Every update is a pure
 * function returning a new set that shares every untouched node with the old one.
 */
import type { Owned } from './collection.js';
import { invariant } from './invariant.js';

/** Ids of one block of `LEAF_SPAN` consecutive values, ascending. */
export interface IdLeaf {
  readonly ids: readonly number[];
}

/** The non-empty children of a node, by digit ascending, each with its number of ids. */
export interface IdBranch {
  readonly digits: readonly number[];
  readonly counts: readonly number[];
  readonly children: readonly IdNode[];
}

export type IdNode = IdLeaf | IdBranch;

/** A set of non-negative integer ids. `root` is a leaf when `height` is 0, a branch otherwise. */
export interface IdSet {
  readonly size: number;
  readonly height: number;
  readonly root: IdNode | null;
}

const LEAF_SPAN = 256;
const FANOUT = 64;

/** The empty set. */
export const EMPTY_ID_SET: IdSet = Object.freeze({ size: 0, height: 0, root: null });

/**
 * A set as an index keeps it: a set of one id is that id alone, any other set is the set. Most keys of a
 * list index (a subscription's invoices, a customer's subscriptions) hold one id, and the tree of one id
 * costs three to nine objects (a branch per level above its leaf); a number costs none. A set stored as
 * a tree of one id (by an earlier version) reads the same.
 */
export type StoredIdSet = IdSet | number;

/** How an index keeps `set`. @example storedIdSet(idSetFrom([7])) // 7 */
export function storedIdSet(set: IdSet): StoredIdSet {
  if (set.size !== 1) return set;
  const only = idSetValues(set).next();
  return only.done === true ? set : only.value;
}

/** The set an index keeps (the empty set for an absent key). @example idSetToArray(loadedIdSet(7)) // [7] */
export function loadedIdSet(stored: StoredIdSet | undefined): IdSet {
  if (stored === undefined) return EMPTY_ID_SET;
  return typeof stored === 'number' ? idSetAdd(EMPTY_ID_SET, stored) : stored;
}

/** Values a node of `height` covers (the leaf span times 64 per level). */
const spanOf = (height: number): number => LEAF_SPAN * FANOUT ** height;

/** The child of a branch at `height` (≥ 1) that holds `id`. */
const digitOf = (id: number, height: number): number => Math.floor(id / spanOf(height - 1)) % FANOUT;

/** The least height whose root covers `id`. */
function heightFor(id: number): number {
  let height = 0;
  while (id >= spanOf(height)) height += 1;
  return height;
}

const isLeaf = (node: IdNode): node is IdLeaf => 'ids' in node;

/** The first index whose value is not below `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A copy of `values` with `value` at `index`. */
function inserted<T>(values: readonly T[], index: number, value: T): T[] {
  const copy = new Array<T>(values.length + 1);
  for (let i = 0; i < index; i += 1) copy[i] = values[i] as T;
  copy[index] = value;
  for (let i = index; i < values.length; i += 1) copy[i + 1] = values[i] as T;
  return copy;
}

/** A copy of `values` without the one at `index`. */
function removed<T>(values: readonly T[], index: number): T[] {
  const copy = new Array<T>(values.length - 1);
  for (let i = 0; i < index; i += 1) copy[i] = values[i] as T;
  for (let i = index + 1; i < values.length; i += 1) copy[i - 1] = values[i] as T;
  return copy;
}

/** A copy of `values` with the one at `index` replaced. */
function replaced<T>(values: readonly T[], index: number, value: T): T[] {
  const copy = values.slice();
  copy[index] = value;
  return copy;
}

/** The node of `height` holding `id` alone. */
function single(id: number, height: number, owned?: Owned): IdNode {
  return ownedBy(
    owned,
    height === 0
      ? { ids: [id] }
      : { digits: [digitOf(id, height)], counts: [1], children: [single(id, height - 1, owned)] },
  );
}

/**
 * A node made by a batch of writes (see `Owned`): the batch's later writes change it, and the arrays it
 * was made with (its own copies), in place instead of copying it again. Only a node is marked; a
 * branch's `digits` may be shared with the node it was copied from, so they are never changed in place.
 */
function ownedBy<T extends IdNode>(owned: Owned | undefined, node: T): T {
  owned?.add(node);
  return node;
}

function checkId(id: number): void {
  invariant(Number.isSafeInteger(id) && id >= 0, `id ${id} is a non-negative safe integer`);
}

/** Whether the set holds `id`. */
export function idSetHas(set: IdSet, id: number): boolean {
  if (set.root === null || !Number.isSafeInteger(id) || id < 0 || id >= spanOf(set.height)) return false;
  let node: IdNode = set.root;
  for (let height = set.height; !isLeaf(node); height -= 1) {
    const at = lowerBound(node.digits, digitOf(id, height));
    if (node.digits[at] !== digitOf(id, height)) return false;
    node = node.children[at] as IdNode;
  }
  return node.ids[lowerBound(node.ids, id)] === id;
}

/** `node` (of `height`) with `id` added, or undefined when it holds it already. */
function added(node: IdNode, height: number, id: number, owned: Owned | undefined): IdNode | undefined {
  if (isLeaf(node)) {
    const at = lowerBound(node.ids, id);
    if (node.ids[at] === id) return undefined;
    if (owned?.has(node) === true) {
      (node.ids as number[]).splice(at, 0, id);
      return node;
    }
    return ownedBy(owned, { ids: inserted(node.ids, at, id) });
  }
  const digit = digitOf(id, height);
  const at = lowerBound(node.digits, digit);
  if (node.digits[at] !== digit)
    return ownedBy(owned, {
      digits: inserted(node.digits, at, digit),
      counts: inserted(node.counts, at, 1),
      children: inserted(node.children, at, single(id, height - 1, owned)),
    });
  const child = added(node.children[at] as IdNode, height - 1, id, owned);
  if (child === undefined) return undefined;
  if (owned?.has(node) === true) {
    (node.counts as number[])[at] = (node.counts[at] as number) + 1;
    (node.children as IdNode[])[at] = child;
    return node;
  }
  return ownedBy(owned, {
    digits: node.digits,
    counts: replaced(node.counts, at, (node.counts[at] as number) + 1),
    children: replaced(node.children, at, child),
  });
}

/**
 * A set with `id` added (the very same set when it holds it already), sharing every untouched node. With
 * `owned` (a batch of writes whose in-between versions are not kept), nodes the batch made are changed in
 * place, so a batch copies each node at most once.
 * @example idSetToArray(idSetAdd(idSetAdd(EMPTY_ID_SET, 7), 3)) // [3, 7]
 */
export function idSetAdd(set: IdSet, id: number, owned?: Owned): IdSet {
  checkId(id);
  if (set.root === null) return { size: 1, height: heightFor(id), root: single(id, heightFor(id), owned) };
  let root: IdNode = set.root;
  let height = set.height;
  // A larger id than the root covers: the old root becomes child 0 of a taller one.
  while (id >= spanOf(height)) {
    height += 1;
    root = ownedBy(owned, { digits: [0], counts: [set.size], children: [root] });
  }
  const next = added(root, height, id, owned);
  return next === undefined ? set : { size: set.size + 1, height, root: next };
}

/** `node` (of `height`) without `id`: null when it held only `id`, undefined when it lacks it. */
function deleted(
  node: IdNode,
  height: number,
  id: number,
  owned: Owned | undefined,
): IdNode | null | undefined {
  if (isLeaf(node)) {
    const at = lowerBound(node.ids, id);
    if (node.ids[at] !== id) return undefined;
    if (node.ids.length === 1) return null;
    if (owned?.has(node) === true) {
      (node.ids as number[]).splice(at, 1);
      return node;
    }
    return ownedBy(owned, { ids: removed(node.ids, at) });
  }
  const digit = digitOf(id, height);
  const at = lowerBound(node.digits, digit);
  if (node.digits[at] !== digit) return undefined;
  const child = deleted(node.children[at] as IdNode, height - 1, id, owned);
  if (child === undefined) return undefined;
  if (child === null)
    return node.digits.length === 1
      ? null
      : ownedBy(owned, {
          digits: removed(node.digits, at),
          counts: removed(node.counts, at),
          children: removed(node.children, at),
        });
  if (owned?.has(node) === true) {
    (node.counts as number[])[at] = (node.counts[at] as number) - 1;
    (node.children as IdNode[])[at] = child;
    return node;
  }
  return ownedBy(owned, {
    digits: node.digits,
    counts: replaced(node.counts, at, (node.counts[at] as number) - 1),
    children: replaced(node.children, at, child),
  });
}

/**
 * A set without `id` (the very same set when it lacks it), sharing every untouched node; the root comes
 * down while all it holds is under its first child, so the height stays the least that covers the ids.
 */
export function idSetDelete(set: IdSet, id: number, owned?: Owned): IdSet {
  if (set.root === null || !Number.isSafeInteger(id) || id < 0 || id >= spanOf(set.height)) return set;
  let root = deleted(set.root, set.height, id, owned);
  if (root === undefined) return set;
  if (root === null) return EMPTY_ID_SET;
  let height = set.height;
  while (!isLeaf(root) && root.digits.length === 1 && root.digits[0] === 0) {
    root = root.children[0] as IdNode;
    height -= 1;
  }
  return { size: set.size - 1, height, root };
}

/** A set of the given ids. @example idSetFrom([5, 1, 5]).size // 2 */
export function idSetFrom(ids: Iterable<number>): IdSet {
  let set = EMPTY_ID_SET;
  for (const id of ids) set = idSetAdd(set, id);
  return set;
}

/** How many ids of the set are below `id`. @example idSetRank(idSetFrom([1, 4, 9]), 5) // 2 */
export function idSetRank(set: IdSet, id: number): number {
  if (set.root === null || id <= 0) return 0;
  if (id >= spanOf(set.height)) return set.size;
  let node: IdNode = set.root;
  let below = 0;
  for (let height = set.height; !isLeaf(node); height -= 1) {
    const digit = digitOf(id, height);
    const at = lowerBound(node.digits, digit);
    for (let i = 0; i < at; i += 1) below += node.counts[i] as number;
    if (node.digits[at] !== digit) return below;
    node = node.children[at] as IdNode;
  }
  return below + lowerBound(node.ids, id);
}

interface Step {
  readonly branch: IdBranch;
  index: number;
}

/**
 * The ids from the `position`-th on (0-based): ascending, or with `descending` from the largest down,
 * `position` then counting from the largest. Reaching the start skips whole children by their counts.
 * @example [...idSetValues(idSetFrom([1, 2, 3]), 1, true)] // [2, 1]
 */
export function* idSetValues(set: IdSet, position = 0, descending = false): Generator<number> {
  if (set.root === null || position >= set.size) return;
  const path: Step[] = [];
  let node: IdNode = set.root;
  let left = Math.max(0, Math.floor(position));
  while (!isLeaf(node)) {
    const last = node.children.length - 1;
    let index = descending ? last : 0;
    while (left >= (node.counts[index] as number)) {
      left -= node.counts[index] as number;
      index += descending ? -1 : 1;
    }
    path.push({ branch: node, index });
    node = node.children[index] as IdNode;
  }
  let leaf: IdLeaf = node;
  let at = descending ? leaf.ids.length - 1 - left : left;
  for (;;) {
    if (descending) for (; at >= 0; at -= 1) yield leaf.ids[at] as number;
    else for (; at < leaf.ids.length; at += 1) yield leaf.ids[at] as number;
    // Up to the nearest branch with a further child, then down its first (or last) leaf.
    let step = path.pop();
    while (
      step !== undefined &&
      (descending ? step.index === 0 : step.index === step.branch.children.length - 1)
    )
      step = path.pop();
    if (step === undefined) return;
    step.index += descending ? -1 : 1;
    path.push(step);
    let next = step.branch.children[step.index] as IdNode;
    while (!isLeaf(next)) {
      const index = descending ? next.children.length - 1 : 0;
      path.push({ branch: next, index });
      next = next.children[index] as IdNode;
    }
    leaf = next;
    at = descending ? leaf.ids.length - 1 : 0;
  }
}

/** All the ids, ascending. */
export const idSetToArray = (set: IdSet): number[] => [...idSetValues(set)];

interface Part {
  readonly node: IdNode;
  readonly height: number;
  readonly count: number;
}

/**
 * The `position`-th smallest id (0-based) of the union of disjoint sets, found by walking down every
 * set at once: at each level the children of one digit are skipped together by their summed counts.
 */
function unionAt(sets: readonly IdSet[], position: number): number {
  let parts: Part[] = [];
  let height = 0;
  for (const set of sets) {
    if (set.root === null) continue;
    parts.push({ node: set.root, height: set.height, count: set.size });
    height = Math.max(height, set.height);
  }
  let left = position;
  for (; height > 0; height -= 1) {
    // A part lower than this level lies wholly under digit 0.
    const lower = (part: Part): boolean => part.height < height || isLeaf(part.node);
    const totals = new Array<number>(FANOUT).fill(0);
    for (const part of parts) {
      if (lower(part)) totals[0] = (totals[0] as number) + part.count;
      else if (!isLeaf(part.node))
        part.node.digits.forEach((digit, i) => {
          totals[digit] = (totals[digit] as number) + ((part.node as IdBranch).counts[i] as number);
        });
    }
    let digit = 0;
    while (left >= (totals[digit] as number)) {
      left -= totals[digit] as number;
      digit += 1;
    }
    const chosen: Part[] = [];
    for (const part of parts) {
      if (lower(part)) {
        if (digit === 0) chosen.push(part);
      } else if (!isLeaf(part.node)) {
        const at = lowerBound(part.node.digits, digit);
        if (part.node.digits[at] === digit)
          chosen.push({
            node: part.node.children[at] as IdNode,
            height: height - 1,
            count: part.node.counts[at] as number,
          });
      }
    }
    parts = chosen;
  }
  // The leaves left all cover one block: the id wanted is the least value with more than `left` ids
  // of the leaves at or below it.
  const leaves = parts.flatMap((part) => (isLeaf(part.node) ? [part.node.ids] : []));
  const some = leaves[0]?.[0];
  invariant(some !== undefined, `position ${position} lies within the union`);
  let low = Math.floor(some / LEAF_SPAN) * LEAF_SPAN;
  let high = low + LEAF_SPAN - 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    let atOrBelow = 0;
    for (const ids of leaves) atOrBelow += lowerBound(ids, mid + 1);
    if (atOrBelow > left) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The ids of the union of disjoint sets (no id in two of them) from the `position`-th on, ascending or
 * descending as `idSetValues`. The start is found through the counts of all the sets at once; from there
 * the sets are merged, so a page of `n` ids costs O(sets × (64 × height + n)).
 */
export function* idSetsValues(sets: readonly IdSet[], position = 0, descending = false): Generator<number> {
  const present = sets.filter((set) => set.size > 0);
  if (present.length <= 1) {
    if (present[0] !== undefined) yield* idSetValues(present[0], position, descending);
    return;
  }
  const total = present.reduce((sum, set) => sum + set.size, 0);
  const start = Math.max(0, Math.floor(position));
  if (start >= total) return;
  const first = unionAt(present, descending ? total - 1 - start : start);
  const iterators = present.map((set) =>
    descending
      ? idSetValues(set, set.size - idSetRank(set, first + 1), true)
      : idSetValues(set, idSetRank(set, first), false),
  );
  const heads = iterators.map((iterator) => iterator.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i += 1) {
      const head = heads[i] as IteratorResult<number>;
      if (head.done) continue;
      const current = heads[best];
      if (
        current === undefined ||
        current.done ||
        (descending ? head.value > current.value : head.value < current.value)
      )
        best = i;
    }
    const chosen = heads[best];
    if (chosen === undefined || chosen.done) return;
    yield chosen.value;
    heads[best] = (iterators[best] as Generator<number>).next();
  }
}
