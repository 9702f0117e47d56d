/** Requests the data-directory tests send to a site through its fetch handler. */
import type { SiteFetchHandler } from '../../src/adapters/fetch.js';

/** Creates customer `n` (first name `C<n>`, email `c<n>@example.com`) with the given headers. */
export const createCustomer = (app: SiteFetchHandler, headers: Record<string, string>, n: number) =>
  app(
    new Request('http://localhost/customers.json', {
      method: 'POST',
      headers,
      body: JSON.stringify({ customer: { first_name: `C${n}`, last_name: 'L', email: `c${n}@example.com` } }),
    }),
  );
