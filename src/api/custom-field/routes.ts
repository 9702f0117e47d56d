/** The custom field routes of every resource type that has custom fields. */
import { metadataRoutes } from './metadata.js';
import { metadataListRoute } from './metadata-list.js';
import { metafieldRoutes } from './metafields.js';

/** Metafields and metadata of subscriptions and customers. */
export const customFieldRoutes = [
  ...metafieldRoutes('subscriptions'),
  ...metafieldRoutes('customers'),
  ...metadataRoutes('subscriptions'),
  ...metadataRoutes('customers'),
  metadataListRoute('subscriptions'),
  metadataListRoute('customers'),
] as const;
