/**
 * Custom fields: a metafield is a named field the site defines for one kind of resource (subscriptions
 * or customers); a metadatum is the value one resource holds in one metafield.
 */
import type { Instant } from '../../kernel/time.js';

/** The kinds of resource that carry custom fields, as the paths name them. */
export const RESOURCE_TYPES = ['subscriptions', 'customers'] as const;

/** A kind of resource that carries custom fields. */
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** How a metafield takes its values: free text, or one of its `enumValues` (radio, dropdown). */
export const INPUT_TYPES = ['text', 'radio', 'dropdown', 'balance_tracker'] as const;

/** How a metafield takes its values. */
export type InputType = (typeof INPUT_TYPES)[number];

/** Whether a place shows a metafield: `'1'` yes, `'0'` no (the official API's wire values). */
export type IncludeOption = '0' | '1';

/** Where a metafield is shown besides the admin pages. */
export interface MetafieldScope {
  readonly csv: IncludeOption;
  readonly invoices: IncludeOption;
  readonly statements: IncludeOption;
  readonly portal: IncludeOption;
  readonly publicShow: IncludeOption;
  readonly publicEdit: IncludeOption;
  /** Product ids (as text) whose hosted pages show it. */
  readonly hosted: readonly string[];
}

/** A custom field the site defines for one kind of resource. */
export interface Metafield {
  readonly id: number;
  readonly resourceType: ResourceType;
  /** Unique among the metafields of its resource type. */
  readonly name: string;
  readonly inputType: InputType;
  /** The values a radio or dropdown field accepts (empty for the other input types). */
  readonly enumValues: readonly string[];
  readonly scope: MetafieldScope;
  /** How many resources hold a (not deleted) value in it. */
  readonly dataCount: number;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/**
 * The value one resource holds in one metafield. Removing it keeps the row with `deletedAt` set (the
 * official listing shows removed values on request); setting it again brings the same row back.
 */
export interface Metadatum {
  readonly id: number;
  readonly resourceType: ResourceType;
  readonly resourceId: number;
  readonly metafieldId: number;
  readonly value: string;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
  readonly deletedAt: Instant | null;
}

/** The most metafields one resource type can have (the official API's limit). */
export const MAX_METAFIELDS_PER_RESOURCE_TYPE = 100;

/** The largest value, in UTF-8 bytes (the official API's 2 kB). */
export const MAX_VALUE_BYTES = 2048;

/** The longest metafield name. */
export const MAX_NAME_LENGTH = 255;

/** A scope that shows the field nowhere: what a metafield created without one gets. */
export const HIDDEN_SCOPE: MetafieldScope = {
  csv: '0',
  invoices: '0',
  statements: '0',
  portal: '0',
  publicShow: '0',
  publicEdit: '0',
  hosted: [],
};
