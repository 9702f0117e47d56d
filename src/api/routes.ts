/** The route table: every operation the REST layer serves. */

import { customerRoutes } from './resources/customers.js';
import { eventRoutes } from './resources/events.js';
import { invoiceRoutes } from './resources/invoices.js';
import { paymentProfileRoutes } from './resources/payment-profiles.js';
import { productFamilyRoutes } from './resources/product-families.js';
import { productPricePointRoutes } from './resources/product-price-points.js';
import { productRoutes } from './resources/products.js';
import { subscriptionRoutes } from './resources/subscriptions.js';
import type { Route } from './route.js';

export const routes: readonly Route[] = [
  ...productFamilyRoutes,
  ...productRoutes,
  ...productPricePointRoutes,
  ...customerRoutes,
  ...paymentProfileRoutes,
  ...subscriptionRoutes,
  ...invoiceRoutes,
  ...eventRoutes,
];
