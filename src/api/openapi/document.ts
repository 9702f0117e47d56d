/**
 * The OpenAPI 3.1 document of the API, built from the route table itself: every route's method and path,
 * its path parameters, the body its schema decodes (zod's JSON Schema of the schema's input), and the
 * body its presenter returns (read off the presenter's type by the project's generator at build time, kept in
 * response-schemas.json). Nothing is described by hand, so the document cannot drift from the engine.
 */

import { z } from '../decode.js';
import type { Route } from '../route.js';
import { routes } from '../routes.js';
import responseSchemas from './response-schemas.json' with { type: 'json' };

type Json = { readonly [key: string]: unknown };

/** The error body every operation may answer (`{errors: [...]}`, `{errors: {field: [...]}}` or a message). */
const ERROR_SCHEMA: Json = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      anyOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        { type: 'string' },
      ],
    },
  },
};

/** The error body of a route whose 422 is the official `{error: message}` (custom fields). */
const SINGLE_ERROR_SCHEMA: Json = {
  anyOf: [ERROR_SCHEMA, { type: 'object', required: ['error'], properties: { error: { type: 'string' } } }],
};

/** The path as OpenAPI names it: the optional `.json` suffix written out. */
const openApiPath = (path: string): string => path.replace(/\.json\?$/, '.json');

/** A `QueryParams` name as the wire writes it: `filter.ids` is `filter[ids]`. */
const wireName = (name: string): string => name.replace(/\.(.+)$/, '[$1]');

const parametersOf = (route: Route): Json[] => [
  ...[...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  })),
  ...(route.query ?? []).map((name) => ({
    name: wireName(name),
    in: 'query',
    required: false,
    schema: { type: 'string' },
  })),
];

const operationId = (route: Route): string =>
  `${route.method.toLowerCase()}${openApiPath(route.path)
    .replace(/\.json$/, '')
    .replace(/\{(\w+)\}/g, 'By_$1')
    .replace(/[^A-Za-z0-9_]+/g, '_')}`;

function operationOf(route: Route): Json {
  const responses: Readonly<Record<string, Json>> = responseSchemas.routes;
  const presented = responses[`${route.method} ${route.path}`];
  const success: Json =
    presented === undefined
      ? { description: 'Success' }
      : { description: 'Success', content: { 'application/json': { schema: presented } } };
  const parameters = parametersOf(route);
  return {
    operationId: operationId(route),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }),
              },
            },
          },
        }),
    responses: {
      '2XX': success,
      default: {
        description: 'An error',
        content: {
          'application/json': { schema: route.errorShape === 'single' ? SINGLE_ERROR_SCHEMA : ERROR_SCHEMA },
        },
      },
    },
  };
}

/**
 * The API as an OpenAPI 3.1 document.
 * @example JSON.stringify(openApiDocument('0.1.0'), null, 2)
 */
export function openApiDocument(version: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes as readonly Route[]) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    const item = paths[path];
    if (item !== undefined) item[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'billing-core',
      version,
      description:
        'The REST API billing-core serves: the operations of Maxio Advanced Billing (formerly Chargify) it implements, with the bodies it accepts and answers.',
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'billing-core serve' }],
    security: [{ basicAuth: [] }],
    components: {
      schemas: responseSchemas.shared,
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } },
    },
    paths,
  };
}
