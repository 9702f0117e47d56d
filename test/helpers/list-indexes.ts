/** A state's list indexes in the shape an earlier version saved them, for the tests of loading one. */
import type { SiteState } from '../../src/engine/state.js';
import { emptyIndex, indexSet } from '../../src/kernel/collection.js';
import { type IdKeyedIndex, idKeyedEntries } from '../../src/kernel/id-keyed.js';
import type { StoredIdSet } from '../../src/kernel/id-set.js';

/** `state` with its lists keyed by ids as an earlier version kept them: sharded, keyed by the id's text. */
export function keyedByText(state: SiteState): SiteState {
  const listIndexes = Object.fromEntries(
    Object.entries(state.listIndexes).map(([name, index]: [string, object]) => {
      if (Object.hasOwn(index, 'groups')) return [name, index];
      let sharded = emptyIndex<StoredIdSet>();
      for (const [key, stored] of idKeyedEntries(index as IdKeyedIndex<StoredIdSet>))
        sharded = indexSet(sharded, String(key), stored);
      return [name, sharded];
    }),
  );
  return { ...state, listIndexes } as unknown as SiteState;
}
