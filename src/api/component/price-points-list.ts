/** Every component price point of the site (`GET /components_price_points.json`), filtered and paged. */

import { PRICE_POINT_LIST_QUERY, pageOfPricePoints, readPricePointFilter } from '../price-point-filter.js';
import { type Route, reply } from '../route.js';
import { presentComponentPricePoint } from './components-present.js';

/** `GET /components_price_points.json`. */
export const componentPricePointListRoutes = [
  {
    method: 'GET',
    path: '/components_price_points.json',
    query: PRICE_POINT_LIST_QUERY,
    run: ({ tx, query }) => {
      const filter = readPricePointFilter(query, tx.settings.timeZone);
      if (!filter.ok) return filter;
      const points = pageOfPricePoints(tx.state.tables.componentPricePoints, filter.value);
      return reply(200, (state) => ({
        price_points: points.map((point) =>
          presentComponentPricePoint(state, point, filter.value.currencyPrices),
        ),
      }));
    },
  },
] as const satisfies readonly Route[];
