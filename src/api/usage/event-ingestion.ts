/**
 * `POST /events/{api_handle}/bulk.json`: records usage events into a stream. The
 * `store_uid` query of legacy metering sites is accepted and ignored. Answers 201 with no body.
 */

import { ingestEvents } from '../../engine/usage/event-ingestion.js';
import { err } from '../../kernel/result.js';
import { type Route, reply } from '../route.js';

export const eventIngestionRoutes = [
  {
    method: 'POST',
    path: '/events/{api_handle}/bulk.json',
    run: ({ tx, params, body }) => {
      const ingested = ingestEvents(tx, params['api_handle'] ?? '', body);
      return ingested.ok ? reply(201) : err(ingested.error);
    },
  },
] as const satisfies readonly Route[];
