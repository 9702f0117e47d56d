/** The customer record. */
import type { Instant } from '../../kernel/time.js';
import type { EntityIdentifierKind } from './tax-identifier-kinds.js';

export interface Customer {
  readonly id: number;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly ccEmails: string | null;
  readonly organization: string | null;
  readonly reference: string | null;
  readonly address: string | null;
  readonly address2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
  readonly country: string | null;
  readonly phone: string | null;
  readonly locale: string | null;
  readonly verified: boolean;
  readonly taxExempt: boolean;
  readonly taxExemptReason: string | null;
  readonly salesforceId: string | null;
  readonly parentId: number | null;
  /** The tax identifier: one per customer, its value mirrored in vatNumber. */
  readonly entityIdentifierKind: EntityIdentifierKind | null;
  readonly entityIdentifierValue: string | null;
  readonly vatNumber: string | null;
  readonly vatCountry: string | null;
  readonly portalCustomerCreatedAt: Instant | null;
  readonly portalInviteLastSentAt: Instant | null;
  readonly portalInviteLastAcceptedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}
