/** Every product price point of the site (`GET /products_price_points.json`), filtered and paged. */

import { PRICE_POINT_LIST_QUERY, pageOfPricePoints, readPricePointFilter } from '../price-point-filter.js';
import { type Route, reply } from '../route.js';
import { presentProductPricePoint } from './product-price-points.js';

/** `GET /products_price_points.json`. */
export const productPricePointListRoutes = [
  {
    method: 'GET',
    path: '/products_price_points.json',
    query: PRICE_POINT_LIST_QUERY,
    run: ({ tx, query }) => {
      const filter = readPricePointFilter(query, tx.settings.timeZone);
      if (!filter.ok) return filter;
      const points = pageOfPricePoints(tx.state.tables.productPricePoints, filter.value);
      // A product price point always shows its (single-currency site: empty) `currency_prices`.
      return reply(200, (state) => ({
        price_points: points.map((point) => presentProductPricePoint(state, point)),
      }));
    },
  },
] as const satisfies readonly Route[];
