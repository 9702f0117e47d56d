/**
 * The OpenAPI document (issue 25 item 2): built from the route table, kept current in docs/, valid by an
 * OpenAPI parser, and true of what the engine answers. Every successful answer of long random scenarios
 * is validated against its operation's response schema.
 */
import { readFileSync } from 'node:fs';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi/document.js';
import responseSchemas from '../../src/api/openapi/response-schemas.json' with { type: 'json' };
import type { Route } from '../../src/api/route.js';
import { createRouter } from '../../src/api/router.js';
import { routes } from '../../src/api/routes.js';
import { createSite, handle, type SiteState } from '../../src/index.js';
import {
  commandSequenceArbitrary,
  requestFor,
  SIMULATION_START,
  simulationConfig,
} from '../../src/testing/index.js';
import { responseSchemas as readResponseSchemas } from '../../tools/openapi/response-schemas.js';

const root = new URL('../../', import.meta.url);
const version = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string })
  .version;

describe('the OpenAPI document', () => {
  it("is current: the response schemas match the presenters' types, docs/openapi.json the route table", () => {
    expect(readResponseSchemas(), 'run npm run openapi').toEqual(responseSchemas);
    const committed: unknown = JSON.parse(readFileSync(new URL('docs/openapi.json', root), 'utf8'));
    expect(committed, 'run npm run openapi').toEqual(openApiDocument(version));
  }, 120_000);

  it('is a valid OpenAPI 3.1 document with an operation for every route', async () => {
    const document = openApiDocument(version);
    // The parser takes its own document type; the document is plain JSON built to that shape.
    const result = await validateOpenApi(structuredClone(document) as Parameters<typeof validateOpenApi>[0]);
    expect(result.valid, JSON.stringify(result.valid ? [] : result.errors).slice(0, 2000)).toBe(true);
    const paths = Reflect.get(document, 'paths') as Record<string, Record<string, unknown>>;
    const operations = Object.values(paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(operations).toBe(routes.length);
    // Every answer with a body is described, and none by an empty schema that would accept anything.
    const described = Object.entries(responseSchemas.routes);
    expect(described.length).toBeGreaterThanOrEqual(140);
    const unchecked = described.filter(([, schema]) => JSON.stringify(schema).includes('{}'));
    expect(unchecked.map(([key]) => key)).toEqual([]);
  });

  it('describes every successful answer of long random scenarios (3 runs × 250 commands)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    const shared = responseSchemas.shared;
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    const validatorFor = (key: string) => {
      const schema = (responseSchemas.routes as Record<string, object>)[key];
      if (schema === undefined) return undefined;
      let validator = validators.get(key);
      if (validator === undefined) {
        validator = ajv.compile({ ...schema, components: { schemas: shared } });
        validators.set(key, validator);
      }
      return validator;
    };
    const match = createRouter(routes as readonly Route[]);
    const checkedRoutes = new Set<string>();
    let answers = 0;
    fc.assert(
      fc.property(
        commandSequenceArbitrary({ minLength: 250, maxLength: 250, weights: { refund_invoice: 2 } }),
        (commands) => {
          let state: SiteState = createSite(simulationConfig());
          let now = Date.parse(SIMULATION_START);
          for (const command of commands) {
            now += command.hours * 3_600_000;
            const request = requestFor(state, command);
            if (request === undefined) continue;
            const result = handle(state, request, { now: new Date(now) });
            state = result.state;
            if (result.response.status >= 300 || result.response.body === undefined) continue;
            const path = request.path.split('?', 1)[0] ?? '';
            const found = match(request.method, path.split('/').slice(1).map(decodeURIComponent));
            if (found.kind !== 'found') throw new Error(`no route for ${request.method} ${path}`);
            const key = `${found.route.method} ${found.route.path}`;
            const validator = validatorFor(key);
            if (validator === undefined) continue;
            const body: unknown = JSON.parse(JSON.stringify(result.response.body));
            const valid = validator(body);
            expect(valid, `${key}: ${JSON.stringify(validator.errors).slice(0, 1500)}`).toBe(true);
            checkedRoutes.add(key);
            answers += 1;
          }
        },
      ),
      { seed: 20_261_128, numRuns: 3 },
    );
    expect(answers).toBeGreaterThan(300);
    expect(checkedRoutes.size).toBeGreaterThan(20);
  }, 120_000);
});
