/**
 * `npm run openapi`: rewrites src/api/openapi/response-schemas.json from the presenters' types, then
 * docs/openapi.json from the route table. test/api/openapi.test.ts fails when either is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { responseSchemas } from './response-schemas.js';

const root = new URL('../../', import.meta.url);
const schemasFile = new URL('src/api/openapi/response-schemas.json', root);
writeFileSync(schemasFile, `${JSON.stringify(responseSchemas(), null, 1)}\n`);
// The document reads the schemas it was built with; import it only once they are written.
const { openApiDocument } = await import('../../src/api/openapi/document.js');
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
// As `billing-core openapi` prints it.
writeFileSync(new URL('docs/openapi.json', root), `${JSON.stringify(openApiDocument(version), null, 2)}\n`);
