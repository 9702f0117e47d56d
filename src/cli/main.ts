#!/usr/bin/env node
/** The `billing-core` executable (package `bin`): runs the program on the process's arguments. */

import { processIo } from './io.js';
import { runCli } from './program.js';

// A closed pipe (`billing-core demo | head`) ends the program quietly instead of with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

runCli(process.argv.slice(2), processIo).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `billing-core: internal error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
