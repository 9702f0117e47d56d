/** The 422 an invoice operation answers when the invoice's status or amounts refuse it. */
import type { DomainError } from '../../domain/errors.js';

export const refused = (message: string): DomainError => ({ code: 'invoice_refused', status: 422, message });
