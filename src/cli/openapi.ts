/** `billing-core openapi`: prints the API's OpenAPI 3.1 document. */

import { readFile } from 'node:fs/promises';
import { openApiDocument } from '../api/openapi/document.js';
import type { CliIo } from './io.js';

/** The package's version, read beside the program (the same two levels up from src/cli and dist/cli). */
async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const version: unknown = Reflect.get(JSON.parse(text) as object, 'version');
  return typeof version === 'string' ? version : '0.0.0';
}

export async function openApiCommand(io: CliIo): Promise<number> {
  io.stdout(JSON.stringify(openApiDocument(await packageVersion()), null, 2));
  return 0;
}
