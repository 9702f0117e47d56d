/**
 * Custom field values: setting, changing and removing the value a resource holds in a metafield, each
 * recorded as a `custom_field_value_change`, and dropping every value of a resource that goes.
 */
import type { Metadatum, Metafield, ResourceType } from '../../domain/custom-field/types.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/**
 * The value rows of one resource (removed ones too), by metafield id, as a request leaves them: the
 * state's list index does not see the request's own writes.
 */
export class ResourceValues {
  readonly #rows = new Map<number, Metadatum>();

  constructor(
    tx: Transaction,
    readonly resourceType: ResourceType,
    readonly resourceId: number,
  ) {
    for (const id of listed(tx.state.listIndexes, 'resourceMetadata', `${resourceType}/${resourceId}`)) {
      const row = tx.get('metadata', id);
      if (row !== undefined) this.#rows.set(row.metafieldId, row);
    }
  }

  /** The row of a metafield, removed or not. */
  row(metafieldId: number): Metadatum | undefined {
    return this.#rows.get(metafieldId);
  }

  /** The value held in a metafield, or undefined when none is. */
  live(metafieldId: number): Metadatum | undefined {
    const row = this.#rows.get(metafieldId);
    return row?.deletedAt === null ? row : undefined;
  }

  /** Notes a row written. */
  wrote(row: Metadatum): void {
    this.#rows.set(row.metafieldId, row);
  }
}

const OWNER_NAMES: Readonly<Record<ResourceType, string>> = {
  subscriptions: 'Subscription',
  customers: 'Customer',
};

/** Records a change of one value: `old` null when it is set anew, `next` null when it is removed. */
function recordChange(
  tx: Transaction,
  field: Metafield,
  resourceId: number,
  old: string | null,
  next: string | null,
): void {
  const owner = OWNER_NAMES[field.resourceType];
  const subscriptionId = field.resourceType === 'subscriptions' ? resourceId : null;
  const customerId =
    subscriptionId === null ? resourceId : (tx.get('subscriptions', subscriptionId)?.customerId ?? null);
  const eventType = old === null ? 'created' : next === null ? 'deleted' : 'updated';
  const change = next === null ? 'removed' : `set to "${next}"`;
  tx.record({
    key: 'custom_field_value_change',
    message: `Custom field "${field.name}" of ${owner.toLowerCase()} ${resourceId} ${change}`,
    subscriptionId,
    customerId,
    data: {
      event_type: eventType,
      metafield_name: field.name,
      metafield_id: field.id,
      old_value: old,
      new_value: next,
      resource_type: owner,
      resource_id: resourceId,
    },
  });
}

/** Counts a value more (or fewer) in its metafield's `dataCount`. */
function counted(tx: Transaction, metafieldId: number, by: 1 | -1): void {
  const field = tx.get('metafields', metafieldId);
  if (field !== undefined) tx.put('metafields', { ...field, dataCount: field.dataCount + by });
}

/**
 * Sets the value a resource holds in a metafield (bringing back its removed row, if it has one); a
 * value equal to the one held changes nothing and records nothing.
 */
export function setValue(
  tx: Transaction,
  values: ResourceValues,
  field: Metafield,
  value: string,
): Metadatum {
  const row = values.row(field.id);
  if (row !== undefined && row.deletedAt === null && row.value === value) return row;
  const old = row?.deletedAt === null ? row.value : null;
  const written = tx.put(
    'metadata',
    row === undefined
      ? {
          id: tx.nextId('metadata'),
          resourceType: values.resourceType,
          resourceId: values.resourceId,
          metafieldId: field.id,
          value,
          createdAt: tx.now,
          updatedAt: tx.now,
          deletedAt: null,
        }
      : { ...row, value, updatedAt: tx.now, deletedAt: null },
  );
  values.wrote(written);
  if (old === null) counted(tx, field.id, 1);
  recordChange(tx, field, values.resourceId, old, value);
  return written;
}

/** Removes a value: its row stays, marked removed, so a listing `with_deleted` still shows it. */
export function removeValue(tx: Transaction, row: Metadatum): Metadatum {
  const field = tx.get('metafields', row.metafieldId);
  const removed = tx.put('metadata', { ...row, updatedAt: tx.now, deletedAt: tx.now });
  counted(tx, row.metafieldId, -1);
  if (field !== undefined) recordChange(tx, field, row.resourceId, row.value, null);
  return removed;
}

/**
 * Drops every value row of a resource that is being deleted, recording nothing: the resource's own
 * deletion is what the log shows.
 */
export function dropResourceValues(tx: Transaction, resourceType: ResourceType, resourceId: number): void {
  for (const id of listed(tx.state.listIndexes, 'resourceMetadata', `${resourceType}/${resourceId}`)) {
    const row = tx.get('metadata', id);
    if (row === undefined) continue;
    if (row.deletedAt === null) counted(tx, row.metafieldId, -1);
    tx.remove('metadata', id);
  }
}
