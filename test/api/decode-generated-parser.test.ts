/**
 * A body schema decodes through zod's generated parser once it has been used often. That parser must
 * give exactly what the interpreted one gives: the same value for every accepted body, and the same
 * failure (it hands a failing body back to the interpreted parser) for every refused one. Checked on one
 * valid body per route, from the simulation the hostile-input tests build, and on each of them with every
 * leaf replaced by values of other kinds.
 */
import { describe, expect, it } from 'vitest';
import { withGeneratedParser, type z } from '../../src/api/decode.js';
import { createRouter } from '../../src/api/router.js';
import { routes } from '../../src/api/routes.js';
import { hostileSite, leafPaths } from './hostile-fixtures.js';

const { corpus } = hostileSite();
const matchRoute = createRouter(routes);

const REPLACEMENTS: readonly unknown[] = [
  null,
  '',
  'x',
  '12.5',
  '-3',
  '1e3',
  ' 7 ',
  0,
  -1,
  2.5,
  1e21,
  true,
  [],
  {},
];

/** The body with the value at `path` replaced. */
function replaced(body: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const inner = replaced((body as Record<string | number, unknown>)[head], rest, value);
  if (Array.isArray(body)) return body.map((item: unknown, index) => (index === head ? inner : item));
  return { ...(body as object), [head]: inner };
}

const cases = corpus.flatMap((request) => {
  const match = matchRoute(request.method, request.path.split('?')[0]!.split('/').slice(1));
  const schema = match.kind === 'found' ? match.route.body : undefined;
  return schema === undefined
    ? []
    : [{ label: `${request.method} ${request.path}`, schema, body: request.body }];
});

describe('decoding through the generated parser', () => {
  it('covers the body of thirty routes or more', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('$label: the same value or failure as the interpreted parser', ({ schema, body }) => {
    const generated = withGeneratedParser(schema as z.ZodType<unknown>);
    const bodies = [
      body,
      ...leafPaths(body ?? {}).flatMap((path) => REPLACEMENTS.map((value) => replaced(body, path, value))),
    ];
    for (const input of bodies) {
      const expected = schema.safeParse(input);
      const actual = generated.safeParse(input);
      expect(actual.success).toBe(expected.success);
      if (expected.success) expect(actual.data).toStrictEqual(expected.data);
      else expect(actual.error?.issues).toStrictEqual(expected.error.issues);
    }
    // The valid body itself is accepted, so the generated parser answered it.
    expect(generated.safeParse(body).success).toBe(true);
  });
});
