/** The `billing-core` command line: subcommand dispatch and usage. */

import { runDemo } from './demo.js';
import type { CliIo } from './io.js';
import { openApiCommand } from './openapi.js';
import { runScenarioFile } from './run-scenario.js';
import { serveCommand } from './serve.js';
import { sitesCommand } from './sites/commands.js';

export const USAGE = `Usage: billing-core <command> [options]

Commands:
  demo                       a short billing story on an in-memory site, printed as invoice tables
  serve --api-key KEY [--host 127.0.0.1] [--port 3000] [--site site.json] [--now ISO]
        [--data-dir DIR [--snapshot-every 1000] [--repair]] [--portal-secret SECRET]
        [--tls-cert cert.pem --tls-key key.pem] [--metric STREAM:AGGREGATION[:PROPERTY]]
                             serve the REST API over HTTP (--api-key may repeat); with --now the clock
                             is frozen and POST /_test/clock.json {"now": "<ISO>"} moves it forward.
                             --data-dir keeps the site on disk: every change is journaled and fsynced
                             before its answer, with a snapshot every N changes; a restart replays it.
                             A change that cannot be saved answers 503 and stops the server (exit 1).
                             A damaged or missing journal refuses to start; --repair moves the damaged
                             records aside (reporting them) and starts without them.
                             --portal-secret signs billing portal links (16+ characters); without it a
                             new data dir stores a random one, and an in-memory site uses a random one.
                             --tls-cert/--tls-key serve HTTPS (TLS 1.2 or newer)
                             --metric (may repeat) adds an events-based billing metric, e.g. api:count
                             or api:sum:bytes, that event_based components and bulk events then use
  serve --database-url URL [--host 127.0.0.1] [--port 3000] [--advertise URL] [--lease-ms 5000]
        [--idle-ms 60000] [--snapshot-every 1000]
                             serve many sites kept in PostgreSQL; a request goes to the site its Host
                             names ({subdomain}.…) or its path prefix /_sites/{subdomain}/… names.
                             Several processes may share the database: each site is served by the one
                             holding its lease (others forward to it, or answer 503 with Retry-After);
                             a site idle for --idle-ms is released; a dead process's sites are taken
                             over once their leases (--lease-ms) expire. --advertise: where the others
                             reach this process (default http://HOST:PORT)
  sites create SUBDOMAIN --database-url URL --api-key KEY [--site site.json]
                             create a site in the database, with its own API keys and configuration
  sites list --database-url URL
                             list the sites: journal position, snapshot position, lease epoch and holder
  run scenario.json          run a scenario {"site"?, "steps": [{"now", "method", "path", "query"?,
                             "headers"?, "body"?, "expect"?}]}, printing each response as a JSON line;
                             exit 1 when a step answers >= 400 (or differs from its "expect")
  openapi                    print the OpenAPI 3.1 document of the REST API, generated from its route table
  help, --help, -h           this text`;

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** Runs the program with arguments (without `node` and the script); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (isHelp(command) || (command !== undefined && rest.some(isHelp))) {
    io.stdout(USAGE);
    return 0;
  }
  switch (command) {
    case 'demo':
      if (rest.length > 0) break;
      return runDemo(io);
    case 'serve':
      return serveCommand(rest, io);
    case 'sites':
      return sitesCommand(rest, io);
    case 'openapi':
      if (rest.length > 0) break;
      return openApiCommand(io);
    case 'run': {
      const [file, ...extra] = rest;
      if (file === undefined || extra.length > 0 || file.startsWith('-')) break;
      return runScenarioFile(file, io);
    }
    default:
      if (command !== undefined) io.stderr(`billing-core: unknown command "${command}"`);
  }
  io.stderr(USAGE);
  return 2;
}
