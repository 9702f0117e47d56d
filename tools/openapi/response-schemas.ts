/**
 * Reads each route's response type off the route table with the TypeScript compiler and writes it as
 * JSON Schema: the type the route's presenter returns, so the OpenAPI document describes exactly what
 * the engine answers. Run by `npm run openapi` (it rewrites src/api/openapi/response-schemas.json and
 * docs/openapi.json); a test checks that both are current.
 */

import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type JsonSchema = { readonly [key: string]: unknown };

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The response schemas: shapes used more than once by name, and each route's body, keyed `METHOD path`. */
export interface ResponseSchemas {
  readonly shared: Record<string, JsonSchema>;
  readonly routes: Record<string, JsonSchema>;
}

/**
 * The presenter's return type of each route as JSON Schema. An object shape that occurs more than once
 * (a subscription inside many answers) is written once under `shared`, named after the key that holds
 * it, and referred to as `#/components/schemas/<Name>`.
 */
export function responseSchemas(): ResponseSchemas {
  return shareShapes(routeSchemas());
}

function routeSchemas(): Record<string, JsonSchema> {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
  if (configPath === undefined) throw new Error('no tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('cannot read tsconfig.json');
  const routesFile = `${root}src/api/routes.ts`;
  const program = ts.createProgram([routesFile], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(routesFile);
  if (source === undefined) throw new Error('no src/api/routes.ts');
  let routesType: ts.Type | undefined;
  source.forEachChild((node) => {
    if (!ts.isVariableStatement(node)) return;
    for (const declaration of node.declarationList.declarations)
      if (ts.isIdentifier(declaration.name) && declaration.name.text === 'routes')
        routesType = checker.getTypeAtLocation(declaration.name);
  });
  // Every element of the table, as a union (a tuple with spread arrays keeps its middle only as a union).
  const element =
    routesType === undefined ? undefined : checker.getIndexTypeOfType(routesType, ts.IndexKind.Number);
  if (element === undefined) throw new Error('routes is not a table');
  const converter = new SchemaWriter(checker);
  const schemas: Record<string, JsonSchema> = {};
  for (const route of element.isUnion() ? element.types : [element]) {
    const method = literalOf(checker, route, 'method');
    const path = literalOf(checker, route, 'path');
    if (method === undefined || path === undefined) continue;
    const bodies = presentedTypes(checker, route);
    if (bodies.length > 0) schemas[`${method} ${path}`] = converter.writeUnion(bodies);
  }
  return schemas;
}

function propertyType(checker: ts.TypeChecker, type: ts.Type, name: string): ts.Type | undefined {
  const symbol = type.getProperty(name);
  return symbol === undefined ? undefined : checker.getTypeOfSymbol(symbol);
}

function literalOf(checker: ts.TypeChecker, route: ts.Type, name: string): string | undefined {
  const type = propertyType(checker, route, name);
  return type?.isStringLiteral() === true ? type.value : undefined;
}

/** What `present` returns in the successful results of a route's `run` (none: no body). */
function presentedTypes(checker: ts.TypeChecker, route: ts.Type): ts.Type[] {
  const run = propertyType(checker, route, 'run');
  const signature = run?.getCallSignatures()[0];
  if (signature === undefined) return [];
  const results = signature.getReturnType();
  const bodies: ts.Type[] = [];
  for (const result of results.isUnion() ? results.types : [results]) {
    const ok = propertyType(checker, result, 'ok');
    if (ok === undefined || checker.typeToString(ok) !== 'true') continue;
    const value = propertyType(checker, result, 'value');
    const present = value === undefined ? undefined : propertyType(checker, value, 'present');
    const call =
      present === undefined ? undefined : checker.getNonNullableType(present).getCallSignatures()[0];
    const returned = call?.getReturnType();
    // `reply(204)` presents nothing: no body to describe.
    if (returned !== undefined && !(returned.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)))
      bodies.push(returned);
  }
  return bodies;
}

/** TypeScript types as JSON Schema (2020-12), shared object shapes written once under `$defs`. */
class SchemaWriter {
  private depth = 0;
  constructor(private readonly checker: ts.TypeChecker) {}

  /** Several types one value may have (a route that answers different shapes), as one schema. */
  writeUnion(types: readonly ts.Type[]): JsonSchema {
    const [only] = types;
    return types.length === 1 && only !== undefined ? this.write(only) : this.union(types);
  }

  write(type: ts.Type): JsonSchema {
    if (this.depth > 24) return {};
    this.depth += 1;
    try {
      return this.convert(type);
    } finally {
      this.depth -= 1;
    }
  }

  private convert(type: ts.Type): JsonSchema {
    const flags = type.flags;
    if (flags & ts.TypeFlags.Any || flags & ts.TypeFlags.Unknown) return {};
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (flags & ts.TypeFlags.Undefined || flags & ts.TypeFlags.Void) return { not: {} };
    if (type.isStringLiteral()) return { const: type.value };
    if (type.isNumberLiteral()) return { const: type.value };
    if (flags & ts.TypeFlags.BooleanLiteral) return { const: this.checker.typeToString(type) === 'true' };
    if (flags & ts.TypeFlags.StringLike) return { type: 'string' };
    if (flags & ts.TypeFlags.NumberLike) return { type: 'number' };
    if (flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (type.isUnion()) return this.union(type.types);
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const items = this.checker.getTypeArguments(type as ts.TypeReference);
      if (this.checker.isTupleType(type))
        return { type: 'array', prefixItems: items.map((item) => this.write(item)) };
      const [item] = items;
      return { type: 'array', items: item === undefined ? {} : this.write(item) };
    }
    if (flags & ts.TypeFlags.Object || type.isIntersection()) return this.object(type);
    return {};
  }

  private union(types: readonly ts.Type[]): JsonSchema {
    const present = types.filter((each) => !(each.flags & ts.TypeFlags.Undefined));
    // `true | false` is how TypeScript spells boolean.
    const booleans = present.filter((each) => each.flags & ts.TypeFlags.BooleanLiteral);
    const others = present.filter((each) => !(each.flags & ts.TypeFlags.BooleanLiteral));
    const written = others.map((each) => this.write(each));
    // Two branches that answer the same shape are one alternative.
    const schemas = written.filter(
      (schema, index) =>
        written.findIndex((other) => JSON.stringify(other) === JSON.stringify(schema)) === index,
    );
    if (booleans.length === 2) schemas.push({ type: 'boolean' });
    else for (const each of booleans) schemas.push(this.write(each));
    const consts = schemas.filter((schema) => 'const' in schema && Object.keys(schema).length === 1);
    if (consts.length === schemas.length && consts.length > 1)
      return { enum: consts.map((schema) => schema.const) };
    if (schemas.length === 1 && schemas[0] !== undefined) return schemas[0];
    // `string | null` and the like as a list of types, as JSON Schema 2020-12 allows.
    const simple = schemas.every(
      (schema) => Object.keys(schema).length === 1 && typeof schema.type === 'string',
    );
    if (simple) return { type: schemas.map((schema) => schema.type) };
    return { anyOf: schemas };
  }

  private object(type: ts.Type): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      const declared = this.checker.getTypeOfSymbol(symbol);
      const optional =
        (symbol.flags & ts.SymbolFlags.Optional) !== 0 ||
        (declared.isUnion() && declared.types.some((each) => each.flags & ts.TypeFlags.Undefined));
      if (declared.getCallSignatures().length > 0) continue;
      properties[symbol.name] = this.write(declared);
      if (!optional) required.push(symbol.name);
    }
    const schema: Record<string, unknown> = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    let additional: JsonSchema | false = false;
    const patterns: Record<string, JsonSchema> = {};
    for (const index of this.checker.getIndexInfosOfType(type)) {
      const key = index.keyType;
      // A key such as `${string}_id` is a pattern; a plain string key allows any other property.
      if (key.flags & ts.TypeFlags.TemplateLiteral)
        patterns[patternOf(key as ts.TemplateLiteralType)] = this.write(index.type);
      else additional = this.write(index.type);
    }
    if (Object.keys(patterns).length > 0) schema.patternProperties = patterns;
    schema.additionalProperties = additional;
    return schema;
  }
}

const isObjectShape = (value: unknown): value is JsonSchema =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Reflect.get(value, 'type') === 'object';

/** Object shapes with at least this many properties are worth a name when they repeat. */
const SHARED_MIN_PROPERTIES = 4;

function shareShapes(routes: Record<string, JsonSchema>): ResponseSchemas {
  const counts = new Map<string, { count: number; hint: string }>();
  const visit = (value: unknown, hint: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, hint);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (
      isObjectShape(value) &&
      Object.keys(Reflect.get(value, 'properties') ?? {}).length >= SHARED_MIN_PROPERTIES
    ) {
      const key = JSON.stringify(value);
      const seen = counts.get(key);
      counts.set(key, { count: (seen?.count ?? 0) + 1, hint: seen?.hint ?? hint });
    }
    for (const [name, child] of Object.entries(value))
      visit(
        child,
        name === 'properties' || name === 'items' || name === 'anyOf' || name === 'prefixItems' ? hint : name,
      );
  };
  for (const [key, schema] of Object.entries(routes))
    visit(
      schema,
      key
        .split(/[ /{}.]/)
        .filter(Boolean)
        .at(-2) ?? 'Body',
    );

  const names = new Map<string, string>();
  const taken = new Set<string>();
  const shapes = [...counts.entries()]
    .filter(([, seen]) => seen.count > 1)
    .sort(([a], [b]) => a.length - b.length);
  for (const [key, seen] of shapes) {
    const base =
      seen.hint
        .replace(/(^|_)(\w)/g, (_all, _sep: string, letter: string) => letter.toUpperCase())
        .replace(/\W/g, '') || 'Shape';
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}${n}`;
    taken.add(name);
    names.set(key, name);
  }
  const replace = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => replace(item, false));
    if (typeof value !== 'object' || value === null) return value;
    const name = top ? undefined : names.get(JSON.stringify(value));
    if (name !== undefined) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, replace(child, false)]));
  };
  const shared: Record<string, JsonSchema> = {};
  for (const [key, name] of names) shared[name] = replace(JSON.parse(key), true) as JsonSchema;
  const rewritten: Record<string, JsonSchema> = {};
  for (const [key, schema] of Object.entries(routes)) rewritten[key] = replace(schema, false) as JsonSchema;
  return { shared, routes: rewritten };
}

/** A template literal key type as a regular expression: `${string}_id` is `^.*_id$`. */
function patternOf(type: ts.TemplateLiteralType): string {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^${type.texts.map(escaped).join('.*')}$`;
}
