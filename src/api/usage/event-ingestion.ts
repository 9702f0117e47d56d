/**
 * `POST /events/{api_handle}/bulk.json`: records usage events into a stream. The
 * `store_uid` query of legacy metering sites is accepted and ignored. Answers 201 with no body.
 */

import { ingestEvents, MAX_BULK_EVENTS } from '../../engine/usage/event-ingestion.js';
import { err } from '../../kernel/result.js';
import { z } from '../decode.js';
import { type Route, reply } from '../route.js';

/**
 * The body: an array of events, each an object naming its subscription under the site's service key
 * (`chargify` in the official dialect) beside the properties the stream's metrics read. The engine
 * checks each event as it folds it in, so that an error names the event's index.
 */
const bulkEventsBody = z.array(z.record(z.string(), z.unknown())).max(MAX_BULK_EVENTS);

export const eventIngestionRoutes = [
  {
    method: 'POST',
    path: '/events/{api_handle}/bulk.json',
    body: bulkEventsBody,
    run: ({ tx, params, body }) => {
      const ingested = ingestEvents(tx, params['api_handle'] ?? '', body);
      return ingested.ok ? reply(201) : err(ingested.error);
    },
  },
] as const satisfies readonly Route[];
