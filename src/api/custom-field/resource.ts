/** What the custom field routes share: the resource a path names, and the listing direction. */
import type { ResourceType } from '../../domain/custom-field/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { findRef, missing } from '../common.js';
import type { QueryParams } from '../query.js';

/** The id of the subscription or customer a path names, or the 404 saying which is missing. */
export function findResource(
  tx: Transaction,
  resourceType: ResourceType,
  ref: string,
): Result<number, DomainError> {
  const row =
    resourceType === 'subscriptions' ? findRef(tx, 'subscriptions', ref) : findRef(tx, 'customers', ref);
  if (row === undefined) return err(missing(resourceType === 'subscriptions' ? 'Subscription' : 'Customer'));
  return ok(row.id);
}

/** Whether a listing runs newest first: `direction` is `asc` (the default) or `desc`. */
export function descending(query: QueryParams): Result<boolean, DomainError> {
  const direction = query.get('direction');
  if (direction === undefined || direction === '' || direction === 'asc') return ok(false);
  if (direction === 'desc') return ok(true);
  return err(invalid('invalid_direction', 'direction: must be asc or desc', 'direction'));
}
