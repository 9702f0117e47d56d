/**
 * `npx tsx tools/postgres/start.ts`: a PostgreSQL server for a try-out of `billing-core serve
 * --database-url`, from the system's packages, in a temporary folder; prints its connection string and
 * runs until Ctrl-C, then stops it and deletes its data.
 */

import { startLocalPostgres } from './local-server.js';

const server = await startLocalPostgres();
process.stdout.write(`PostgreSQL is running: ${server.url}\n(Ctrl-C stops it and deletes its data)\n`);
const stop = () => {
  server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30);
