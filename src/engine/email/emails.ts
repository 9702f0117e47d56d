/**
 * The outbox. The engine sends no email (no I/O in the core): it records each one it would send in the
 * `emails` table, and a host reads them with `emailOutbox` and delivers them.
 */
import type { Email, EmailKind } from '../../domain/email/types.js';
import { listRange } from '../../kernel/collection.js';
import type { SiteState } from '../state.js';
import type { Transaction } from '../transaction.js';

export interface EmailInput {
  readonly kind: EmailKind;
  readonly to: string;
  readonly customerId: number;
  readonly subscriptionId?: number | null;
  readonly subject: string;
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
}

/** Records an email sent at the transaction's instant. */
export function recordEmail(tx: Transaction, input: EmailInput): Email {
  return tx.put('emails', {
    id: tx.nextId('emails'),
    kind: input.kind,
    to: input.to,
    customerId: input.customerId,
    subscriptionId: input.subscriptionId ?? null,
    at: tx.now,
    subject: input.subject,
    ...(input.cc === undefined || input.cc.length === 0 ? {} : { cc: input.cc }),
    ...(input.bcc === undefined || input.bcc.length === 0 ? {} : { bcc: input.bcc }),
  });
}

/**
 * The emails recorded after the one with id `afterId` (all of them by default), oldest first. A host
 * delivers them and remembers the last id it handled.
 * @example
 * const pending = emailOutbox(state, lastDeliveredId);
 * for (const email of pending) send(email.to, email.subject);
 */
export function emailOutbox(state: SiteState, afterId = 0): readonly Email[] {
  const start = Number.isSafeInteger(afterId) && afterId > 0 ? afterId : 0;
  const emails: Email[] = [];
  for (const row of listRange(state.tables.emails.rows, start)) if (row !== null) emails.push(row);
  return emails;
}
