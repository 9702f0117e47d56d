/**
 * Domain errors are values with a stable code, the HTTP status the API answers with, a message, and
 * the request field they concern. Throwing is kept for broken invariants (bugs).
 */
export interface DomainError {
  readonly code: string;
  readonly status: 404 | 422 | 429 | 400 | 409;
  readonly message: string;
  readonly field?: string;
  /** Extra members of the error body (an `action_link`, a `new_link_available_at`). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A 422 validation error. @example invalid('blank_name', 'Name: cannot be blank.', 'name') */
export const invalid = (code: string, message: string, field?: string): DomainError =>
  field === undefined ? { code, status: 422, message } : { code, status: 422, message, field };

/** A 404 for a missing resource. @example notFound('customer') */
export const notFound = (resource: string): DomainError => ({
  code: 'not_found',
  status: 404,
  message: `${resource} not found`,
});
