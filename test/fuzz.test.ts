import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { executionStreamId } from '../src/domain/execution/stream';
import { flowStreamId } from '../src/domain/flow/events';
import { masterStreamId } from '../src/domain/master-mode/events';
import { isStorableText } from '../src/domain/storable-text';
import { type Call, executeAllEnded } from './support/execute-all';
import { fuzzSeed } from './support/fuzz-seed';
import { registered, serverErrors } from './support/route-recorder';
import { as, type Client, createTestApp, OFFLINE_WITH_KEYS, signUp, type TestApp } from './support/test-app';

/**
 * Property-based fuzzing of every route the app registers: generated params, queries, bodies and headers
 * (valid-looking ones from each route's schema, and hostile ones) as the signed-in user, signed out, and
 * naming the user's objects, another user's, random ids and garbage. It asserts that no answer is a 5xx,
 * that every refusal is a problem (`application/problem+json` with its code and message), that a refused
 * request (4xx) changes no stored data, and that nothing changes another user's objects. Each route gets its own runs from
 * fresh objects, then every route takes part in one random sequence over the same objects.
 *
 * The seed is always printed, at the start and with every failure. Under CI (CI=true) it is fixed
 * (CI_FUZZ_SEED in test/support/fuzz-seed.ts), so a run of the same code fuzzes the same requests; elsewhere
 * it is drawn at random. FUZZ_SEED=<n> replays a run, FUZZ_SEED=random draws one under CI too, FUZZ_RUNS=<n> sets
 * the runs per API route, FUZZ_MIXED_RUNS=<n> the requests of the final sequence over every route,
 * FUZZ_ROUTE=<regex> keeps only the routes whose `METHOD /url` it matches (each keeps its seed), FUZZ_SHRINK=1
 * shrinks a failing request, FUZZ_VERBOSE=1 prints the answers of each route (printed anyway on a failure).
 */

// Every app this file makes records its routes and its requests' errors.
vi.mock('fastify', async (original) =>
  (await import('./support/route-recorder')).recordingFastify(await original()),
);

const { seed: SEED, source: SEED_SOURCE } = fuzzSeed(process.env);
const API_RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const HEAD_RUNS = 4;
const FILE_RUNS = 2;
const MIXED_RUNS = Number(process.env.FUZZ_MIXED_RUNS ?? 300);
const ONLY = process.env.FUZZ_ROUTE ? new RegExp(process.env.FUZZ_ROUTE) : null;

// ---------------------------------------------------------------------------------------------------------
// Values

/** JSON text spliced into a body as it is: numbers JSON.stringify cannot write, deep nesting, proto keys. */
class Raw {
  constructor(readonly text: string) {}
}

const deepArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObjects = (levels: number) => `${'{"a":'.repeat(levels)}null${'}'.repeat(levels)}`;
const deepMixed = (levels: number) => `${'[{"a":'.repeat(levels)}1${'}]'.repeat(levels)}`;

const LONG = 'x'.repeat(600_000);
const JUST_OVER = 'é'.repeat(500_001);
const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'toJSON',
];

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udfff\ud800',
  '-0',
  'NaN',
  'Infinity',
  '1e309',
  '0x1F',
  'null',
  'undefined',
  'true',
  '9'.repeat(400),
  '%00',
  '%',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE flows; --",
  '[[step-1]]'.repeat(100),
  '[[row-1]][[row-999999999999]]',
  '[[step-0]][[step-99999999999999999999]][[row-0]]',
  '1/0',
  '1 % 0',
  '9'.repeat(31),
  `${'('.repeat(41)}1${')'.repeat(41)}`,
  '99999999999999999999999999999 * 99999999999999999999999999999 * 99999999999999999999999999999',
  '--1 - -[[row-1]]',
  '2 ** 3e5',
  '\u202e\ufeff\u200b',
  '😀'.repeat(50),
  'e\u0301',
  '\r\n\t',
  ...PROTO_KEYS,
];

const nastyString = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 6 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.constantFrom(LONG, JUST_OVER), weight: 1 },
);

/** Anything a field should not hold: odd strings, wrong types, huge or odd numbers, nesting, proto keys. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyString, weight: 6 },
  {
    arbitrary: fc.constantFrom<unknown>(
      0,
      -1,
      1.5,
      Number.MAX_SAFE_INTEGER + 2,
      1e308,
      -1e308,
      2 ** 31,
      new Raw('-0'),
      new Raw('1e309'),
      new Raw('-1e309'),
      new Raw('123456789012345678901234567890'),
      new Raw('1.0'),
      new Raw('1e-400'),
      true,
      false,
      null,
      [],
      {},
      [null],
      { length: 1 },
    ),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom(
      new Raw(deepArrays(10_000)),
      new Raw(deepObjects(10_000)),
      new Raw(deepMixed(5_000)),
      new Raw('{"__proto__":{"polluted":true}}'),
      new Raw('{"constructor":{"prototype":{"polluted":true}}}'),
    ),
    weight: 2,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  {
    arbitrary: fc
      .anything({ maxDepth: 2 })
      .map((value) => JSON.stringify(value))
      .filter((text): text is string => typeof text === 'string')
      .map((text) => new Raw(text)),
    weight: 1,
  },
);

/** JSON text of a value that may hold Raw pieces (each written as its text). */
function jsonText(value: unknown): string {
  const pieces: string[] = [];
  const text = JSON.stringify(value, (_key, current: unknown) => {
    if (!(current instanceof Raw)) return current;
    pieces.push(current.text);
    return `\u0001raw${pieces.length - 1}\u0001`;
  });
  if (text === undefined) return 'null';
  return pieces.reduce((out, piece, i) => out.split(JSON.stringify(`\u0001raw${i}\u0001`)).join(piece), text);
}

/** Percent-encodes any text, lone surrogates too (as the bytes WTF-8 would give them). */
function encodePart(text: string): string {
  if (isStorableText(text)) return encodeURIComponent(text);
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Inputs from a route's schema

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

const shortText = (minLength = 0, maxLength = 24) => {
  const max = Math.max(minLength, Math.min(maxLength, 24));
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength: max }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: max }), weight: 1 },
  );
};

/** Ids for a field or param of the given name: the real ones, those of the kind the name suggests first. */
type IdsFor = (name: string) => fc.Arbitrary<string>;

/** A value the schema would likely take (ids drawn from the real ones), or near it. */
function valueFor(schema: JsonSchema, ids: IdsFor, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => valueFor(alternative, ids, name, depth + 1)));
  }
  if (schema.allOf?.[0]) return valueFor(schema.allOf[0], ids, name, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => valueFor({ ...schema, type }, ids, name, depth)));
  switch (types[0]) {
    case 'string':
      if (schema.format === 'uuid')
        return fc.oneof({ arbitrary: ids(name), weight: 4 }, { arbitrary: fc.uuid(), weight: 1 });
      if (/email/i.test(name)) return fc.oneof(fc.emailAddress(), shortText());
      return shortText(schema.minLength ?? 0, schema.maxLength ?? 24);
    case 'integer': {
      const min = Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER);
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 20) }), fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      return fc.array(valueFor(schema.items ?? {}, ids, name, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return fc.constant({});
      const model = Object.fromEntries(
        properties.map(([key, property]) => [key, valueFor(property, ids, key, depth + 1)]),
      );
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

type Place = { parent: Record<string | number, unknown>; key: string | number };

/** Every place inside a JSON value (found without recursion). */
function placesIn(value: unknown): Place[] {
  const places: Place[] = [];
  const pending = [value];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current === null || typeof current !== 'object') continue;
    const parent = current as Record<string | number, unknown>;
    for (const key of Object.keys(parent)) {
      places.push({ parent, key: Array.isArray(parent) ? Number(key) : key });
      pending.push(parent[key]);
    }
  }
  return places;
}

/** The value with one place (or the whole, when it has none) replaced. */
function replacedAt(value: unknown, pick: number, replacement: unknown): unknown {
  const copy: unknown = structuredClone(value);
  const places = placesIn(copy);
  const place = places[pick % Math.max(places.length, 1)];
  if (!place) return replacement;
  place.parent[place.key] = replacement;
  return copy;
}

/** The value with one more own key (also __proto__ as an own key, as JSON.parse would make it). */
function withKey(value: unknown, key: string, added: unknown): unknown {
  const target = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
  Object.defineProperty(target, key, { value: added, enumerable: true, writable: true, configurable: true });
  return target;
}

interface Body {
  contentType?: string;
  payload: string;
}

const json = (value: unknown): Body => ({ contentType: 'application/json', payload: jsonText(value) });

const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"a":}',
  '[1,]',
  'nul',
  '"unterminated',
  '{"a":1}garbage',
  '\u0000',
  'NaN',
  '-0',
  '1e309',
  '{"a":1,"a":2}',
  '\ufeff{}',
  "{'a':1}",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

const OTHER_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/octet-stream',
  '',
];

const OVER_BODY_LIMIT = `{"a":"${'x'.repeat(4 * 1024 * 1024 + 10)}"}`;

/** Bodies for a route: from its schema, the schema's shape spoiled, any JSON, bad JSON, other media types. */
function bodiesFor(schema: JsonSchema | undefined, ids: IdsFor, takesBody: boolean) {
  const valid = schema ? valueFor(schema, ids) : fc.constant({});
  const asForm = (value: unknown) =>
    new URLSearchParams(
      Object.entries(value !== null && typeof value === 'object' ? value : { value }).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : jsonText(v),
      ]),
    ).toString();
  const hostile = fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json), weight: 2 },
    { arbitrary: nastyValue.map(json), weight: 2 },
    {
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 2 }))
        .map(([value, key, added]) => json(withKey(value, key, added))),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(valid, nastyString, nastyValue)
        .map(([value, key, added]) => json(withKey(value, key, added))),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(...MALFORMED_JSON)
        .map((payload) => ({ contentType: 'application/json', payload })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom(...OTHER_CONTENT_TYPES),
          fc.oneof(valid.map(asForm), valid.map(jsonText), shortText()),
        )
        .map(([contentType, payload]) => (contentType ? { contentType, payload } : { payload })),
      weight: 2,
    },
    {
      arbitrary: fc.constant<Body>({ contentType: 'application/json', payload: OVER_BODY_LIMIT }),
      weight: 1,
    },
  );
  if (!takesBody) {
    return fc.oneof(
      { arbitrary: fc.constant<Body | null>(null), weight: 6 },
      { arbitrary: hostile, weight: 1 },
    );
  }
  return fc.oneof(
    { arbitrary: valid.map(json), weight: 4 },
    {
      arbitrary: fc
        .tuple(valid, fc.nat(), nastyValue)
        .map(([value, pick, nasty]) => json(replacedAt(value, pick, nasty))),
      weight: 5,
    },
    { arbitrary: hostile, weight: 4 },
    { arbitrary: fc.constant<Body | null>(null), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------------------
// The objects requests name

type Kind =
  | 'flow'
  | 'step'
  | 'execution'
  | 'result'
  | 'masterSession'
  | 'masterStep'
  | 'userSession'
  | 'apiKey'
  | 'apiToken'
  | 'recommendation';

type Objects = Record<Kind, string[]>;

/** The kinds of object a param or field most likely names: by its name, else by the resource before it. */
function kindsOf(url: string, param: string): Kind[] | null {
  if (param === 'flowId') return ['flow'];
  if (param === 'executionId') return ['execution'];
  if (param === 'inputSources') return ['step'];
  if (param === 'sessionId') return ['masterSession'];
  if (param === 'stepId') return url.includes('/master-mode/') ? ['masterStep'] : ['step'];
  const segments = url.split('/');
  const resource = segments[segments.indexOf(`:${param}`) - 1] ?? '';
  const byResource: Record<string, Kind> = {
    flows: 'flow',
    steps: 'step',
    executions: 'execution',
    'step-results': 'result',
    'user-sessions': 'userSession',
    'api-keys': 'apiKey',
    tokens: 'apiToken',
    recommendations: 'recommendation',
  };
  const kind = byResource[resource];
  return kind ? [kind] : null;
}

const allIds = (objects: Objects) => Object.values(objects).flat();

const RAW_SEGMENTS = ['%', '%zz', '%00', '%ED%A0%80', '%2F', '..', '.', '%2e%2e', 'a%2Fb', '%C0%AF', '%FF'];

/** What a path param is filled with (as URL text): real ids, the other user's, random uuids, garbage. */
function paramValue(url: string, param: string, mine: Objects, theirs: Objects): fc.Arbitrary<string> {
  const kinds = kindsOf(url, param);
  const preferred = kinds ? kinds.flatMap((kind) => mine[kind]) : allIds(mine);
  const pick = (ids: string[]) => (ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid());
  return fc.oneof(
    { arbitrary: pick(preferred), weight: 6 },
    { arbitrary: pick(allIds(mine)), weight: 1 },
    { arbitrary: pick(allIds(theirs)), weight: 2 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: pick(preferred).map((id) => id.toUpperCase()), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
      ),
      weight: 1,
    },
    { arbitrary: fc.oneof(nastyString, fc.string()).map(encodePart), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS, 'a'.repeat(200)), weight: 1 },
  );
}

interface QueryParam {
  name: string;
  schema: JsonSchema;
}

/** A query string: the route's own params (sometimes twice, sometimes odd) and keys it does not know. */
function queryFor(params: QueryParam[], ids: IdsFor): fc.Arbitrary<string> {
  const known = params.map(({ name, schema }) =>
    fc.tuple(
      fc.constant(name),
      fc.oneof(
        {
          arbitrary: valueFor(schema, ids, name).map((v) => (typeof v === 'string' ? v : jsonText(v))),
          weight: 3,
        },
        { arbitrary: nastyString, weight: 2 },
      ),
    ),
  );
  const unknown = fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), nastyString, fc.string()), nastyString);
  const pair = known.length > 0 ? fc.oneof({ arbitrary: fc.oneof(...known), weight: 4 }, unknown) : unknown;
  return fc.oneof(
    { arbitrary: fc.constant(''), weight: 2 },
    {
      arbitrary: fc
        .array(pair, { maxLength: 4 })
        .map((pairs) => pairs.map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`).join('&')),
      weight: 5,
    },
    {
      arbitrary: fc.constantFrom('&&&', '=', 'a[b]=1&a[c]=2', '__proto__[x]=1', '%', 'a=%zz', '?'),
      weight: 1,
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Requests

interface Route {
  method: HTTPMethods;
  url: string;
  api: boolean;
  bodySchema: JsonSchema | undefined;
  queryParams: QueryParam[];
  /** The operation's place in the OpenAPI document (its path and method), when it is documented. */
  operation:
    | { path: string; method: string; responses: Record<string, OpenApiResponse>; document: OpenApiOperation }
    | undefined;
}

interface FuzzRequest {
  who: 'signed-in' | 'signed-out' | 'bad-cookie';
  params: Record<string, string>;
  query: string;
  body: Body | null;
  headers: Record<string, string>;
  remoteAddress: string;
}

const shorten = (text: string, max = 160) =>
  text.length > max ? `${text.slice(0, max)}... (${text.length.toLocaleString('en-US')} chars)` : text;

function urlOf(route: Route, request: FuzzRequest) {
  const path = route.url
    .replace(/:(\w+)/g, (_, name: string) => request.params[name] ?? '')
    .replace('*', request.params['*'] ?? '');
  return request.query ? `${path}?${request.query}` : path;
}

function described(route: Route, request: FuzzRequest) {
  const body = request.body
    ? ` body(${request.body.contentType ?? 'no content-type'}): ${shorten(request.body.payload)}`
    : '';
  return `${route.method} ${shorten(urlOf(route, request), 300)} as ${request.who}${body} headers ${shorten(
    JSON.stringify(request.headers),
  )}`;
}

const safeHeaderText = fc.string({ unit: 'grapheme-ascii', maxLength: 30 });

const headersArb = fc.record(
  {
    // A few keys again and again: a key reused for another request is refused (409).
    'idempotency-key': fc.oneof(
      fc.constantFrom('key-1', 'key-2', 'key-3'),
      fc.uuid(),
      safeHeaderText,
      fc.constantFrom('', ' ', 'k'.repeat(201)),
    ),
    origin: fc.constantFrom(
      'http://localhost:80',
      'http://localhost',
      'https://evil.example',
      'null',
      'not a url',
    ),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', ''),
    // For the files: ranges past the end or unreadable, conditional requests, encodings.
    range: fc.constantFrom(
      'bytes=0-0',
      'bytes=999999999-',
      'bytes=abc',
      'bytes=5-1',
      'bytes=0-1,2-3',
      'bytes=-0',
    ),
    'if-none-match': fc.constantFrom('*', '"x"', 'W/"x"', ''),
    'if-modified-since': fc.constantFrom('garbage', 'Tue, 01 Jan 2999 00:00:00 GMT', ''),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*;q=0', 'x'.repeat(300)),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
    'x-forwarded-proto': fc.constantFrom('https', 'javascript'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not an address'),
  },
  { requiredKeys: [] },
);

function requestsFor(route: Route, mine: Objects, theirs: Objects): fc.Arbitrary<FuzzRequest> {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const paramArbs: Record<string, fc.Arbitrary<string>> = Object.fromEntries(
    names.map((name) => [name, paramValue(route.url, name, mine, theirs)]),
  );
  if (route.url.includes('*')) {
    paramArbs['*'] = fc.oneof(
      fc.constantFrom('index.html', 'swagger-ui.css', '../package.json', '..%2F..%2Fpackage.json', '%00', ''),
      fc.string().map(encodePart),
    );
  }
  const everyId = fc.constantFrom(...allIds(mine), ...allIds(theirs));
  const ids: IdsFor = (name) => {
    const preferred = kindsOf(route.url, name)?.flatMap((kind) => mine[kind]) ?? allIds(mine);
    return preferred.length > 0
      ? fc.oneof({ arbitrary: fc.constantFrom(...preferred), weight: 4 }, { arbitrary: everyId, weight: 1 })
      : everyId;
  };
  const takesBody = route.bodySchema !== undefined;
  const bodies = route.method === 'HEAD' ? fc.constant(null) : bodiesFor(route.bodySchema, ids, takesBody);
  return fc
    .record({
      who: fc.oneof(
        { arbitrary: fc.constant('signed-in' as const), weight: 12 },
        { arbitrary: fc.constantFrom('signed-out' as const, 'bad-cookie' as const), weight: 2 },
      ),
      params: fc.record(paramArbs),
      query: queryFor(route.queryParams, ids),
      body: bodies,
      // Files answer by their headers (ranges, conditions) more than by anything else.
      headers: fc.oneof(
        { arbitrary: fc.constant({}), weight: route.api ? 2 : 1 },
        { arbitrary: headersArb, weight: route.api ? 1 : 3 },
      ),
      remoteAddress: fc.ipV4(),
    })
    .map((request) =>
      Object.assign(request, { [fc.toStringMethod]: () => described(route, request) }),
    ) as fc.Arbitrary<FuzzRequest>;
}

// ---------------------------------------------------------------------------------------------------------
// Stored data

/** A checksum per table (the event log: its count and last position), to see what a request changed. */
async function snapshotter(sql: Sql) {
  const tables = (
    await sql<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        -- The rate limits' counts: every request to a limited route counts, refused or not. The answers kept
        -- for Idempotency-Keys: a refusal is kept too, to be answered again to the same request. The audit log:
        -- written in the background after the commits of earlier requests (the events, compared, say whether
        -- a request appended any).
        AND table_name NOT IN ('rate_limits', 'idempotent_requests', 'audit_log_leaves', 'audit_log_nodes',
          'audit_checkpoints')
      ORDER BY table_name`
  ).map(({ name }) => name);
  const statement = tables
    .map((table) =>
      table === 'events'
        ? `SELECT 'events' AS name, count(*) || '/' || coalesce(max(global_position), 0) AS sum FROM events`
        : `SELECT '${table}' AS name, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS sum FROM "${table}" t`,
    )
    .join(' UNION ALL ');
  return {
    async take(): Promise<Record<string, string>> {
      const rows = await sql.unsafe<{ name: string; sum: string }[]>(statement);
      return Object.fromEntries(rows.map((row) => [row.name, row.sum]));
    },
  };
}

/** The types of the events appended after a snapshot's `count/position` of the log. */
async function eventTypesAfter(sql: Sql, events: string) {
  const position = Number(events.split('/')[1]);
  const rows = await sql<{ eventType: string }[]>`
    SELECT event_type FROM events WHERE global_position > ${position} ORDER BY global_position`;
  return rows.map((row) => row.eventType);
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys(after).filter((table) => before[table] !== after[table]);

/** Everything of one user's objects, as one checksum: none of it may change by another user's requests. */
async function checksumOf(sql: Sql, userId: string, streams: string[]) {
  const [row] = await sql<{ sum: string }[]>`
    SELECT md5(concat_ws('|',
      (SELECT string_agg(f::text, ',' ORDER BY f.id) FROM flows f WHERE f.user_id = ${userId}),
      (SELECT string_agg(s::text, ',' ORDER BY s.id) FROM steps s
        WHERE s.flow_id IN (SELECT id FROM flows WHERE user_id = ${userId})),
      (SELECT string_agg(e::text, ',' ORDER BY e.id) FROM executions e WHERE e.user_id = ${userId}),
      (SELECT string_agg(r::text, ',' ORDER BY r.id) FROM step_results r
        WHERE r.execution_id IN (SELECT id FROM executions WHERE user_id = ${userId})),
      (SELECT string_agg(m::text, ',' ORDER BY m.id) FROM master_mode_sessions m WHERE m.user_id = ${userId}),
      (SELECT string_agg(m::text, ',' ORDER BY m.id) FROM master_mode_steps m
        WHERE m.session_id IN (SELECT id FROM master_mode_sessions WHERE user_id = ${userId})),
      (SELECT string_agg(u::text, ',' ORDER BY u.id) FROM user_sessions u WHERE u.user_id = ${userId}),
      (SELECT string_agg(k::text, ',' ORDER BY k.id) FROM user_api_keys k WHERE k.user_id = ${userId}),
      (SELECT string_agg(t::text, ',' ORDER BY t.id) FROM api_tokens t WHERE t.user_id = ${userId}),
      (SELECT string_agg(w::text, ',' ORDER BY w.id) FROM workflow_recommendations w WHERE w.user_id = ${userId}),
      (SELECT string_agg(c::text, ',' ORDER BY c.id) FROM ai_conversation_context c WHERE c.user_id = ${userId}),
      (SELECT string_agg(a::text, ',' ORDER BY a.id) FROM ai_suggestions a
        WHERE a.flow_id IN (SELECT id FROM flows WHERE user_id = ${userId})),
      (SELECT count(*) || '/' || coalesce(max(global_position), 0) FROM events WHERE stream_id = ANY(${streams}))
    )) AS sum`;
  return row!.sum;
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures

const PASSWORD = 'correct horse battery';

const lastServerError = () => {
  const [error] = serverErrors;
  if (!error) return '';
  const cause = error.cause
    ? `\n  because: ${shorten(String(JSON.stringify(error.cause) ?? error.cause), 2000)}`
    : '';
  return `\n  cause: ${error.stack ?? error}${cause}`;
};

async function ok(response: Promise<{ statusCode: number; body: string; json(): unknown }>, what: string) {
  const answer = await response;
  if (answer.statusCode >= 300) {
    throw new Error(
      `${what}: ${answer.statusCode} ${answer.body}${answer.statusCode >= 500 ? lastServerError() : ''}`,
    );
  }
  return answer.json() as Record<string, unknown> & { id: string };
}

/** One of everything a user can own: a flow with steps, a run with a result, a master session... */
async function createObjects(client: Client): Promise<Objects> {
  // A user holds at most MAX_OWN_KEYS_PER_USER keys, and the objects are made again after every change: a key made
  // before, if the fuzzing left one, serves again.
  const [kept] = (await ok(client.get('/api/user/api-keys'), 'keys')) as unknown as { id: string }[];
  const key =
    kept ??
    (await ok(client.post('/api/user/api-keys', { keyName: 'Fuzz', apiKey: 'not-a-real-key' }), 'key'));
  const token = await ok(client.post('/api/user/tokens', { name: 'Fuzz', scopes: ['read'] }), 'token');
  const flow = await ok(client.post('/api/flows', { name: 'Fuzzed', description: 'A flow to fuzz' }), 'flow');
  const steps = [];
  for (const [i, step] of [
    { name: 'Draft', systemPrompt: 'Write a short note.' },
    { name: 'Variants', systemPrompt: 'Offer variants of [[step-1]].', outputMode: 'multiple' },
    { name: 'Pick', systemPrompt: 'Choose.', outputMode: 'multiple_choice', choices: ['A', 'B'] },
  ].entries()) {
    steps.push(await ok(client.post('/api/steps', { flowId: flow.id, order: i + 1, ...step }), 'step'));
  }
  const execution = await ok(client.post(`/api/flows/${flow.id}/execute`), 'execution');
  const run = (await ok(
    client.post(`/api/executions/${execution.id}/steps/${steps[0]!.id}/execute`, {}),
    'run',
  )) as unknown as { results: { id: string }[] };
  // The flow changed since its execution last ran: a run first brings the execution's steps up to date.
  await ok(
    client.put(`/api/steps/${steps[2]!.id}`, { systemPrompt: 'Choose one of [[step-2]].' }),
    'step edit',
  );
  await ok(client.post(`/api/flows/${flow.id}/context`, { userNotes: 'Keep it short.' }), 'context');
  await ok(client.post(`/api/flows/${flow.id}/suggestions`), 'suggestions');
  const session = (await ok(
    client.post('/api/master-mode/standalone', { name: 'Sheet', flowId: flow.id }),
    'master session',
  )) as unknown as { id: string; steps: { id: string }[] };
  const row = await ok(
    client.post('/api/master-mode/steps', {
      sessionId: session.id,
      stepName: 'N',
      stepType: 'text',
      userInput: '42',
    }),
    'master row',
  );
  await ok(client.post(`/api/master-mode/execute/${row.id}`), 'master row run');
  // Rows 1-3 come from the flow, the text row is row 4.
  const sum = await ok(
    client.post('/api/master-mode/steps', {
      sessionId: session.id,
      stepName: 'Sum',
      stepType: 'calculation',
      userInput: '([[row-4]] * 2 + 1) / 3',
    }),
    'calculation row',
  );
  await ok(client.post(`/api/master-mode/execute/${sum.id}`), 'calculation row run');
  const fetch = await ok(
    client.post('/api/master-mode/steps', {
      sessionId: session.id,
      stepName: 'Fetch',
      stepType: 'api',
      userInput: 'https://api.example.com/[[row-5]]',
    }),
    'api row',
  );
  const saved = await ok(
    client.post('/api/user-sessions', { sessionName: 'Here', flowId: flow.id }),
    'session',
  );
  const recommendations = (await ok(
    client.post('/api/recommendations/generate'),
    'recommendations',
  )) as unknown as {
    recommendations: { id: string }[];
  };
  return {
    flow: [flow.id],
    step: steps.map((step) => step.id),
    execution: [execution.id],
    result: run.results.map((result) => result.id),
    masterSession: [session.id],
    masterStep: [...session.steps.map((step) => step.id), row.id, sum.id, fetch.id],
    userSession: [saved.id],
    apiKey: [key.id],
    apiToken: [token.id],
    recommendation: recommendations.recommendations.map((r) => r.id),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The routes

interface OpenApiResponse {
  content?: Record<string, { schema?: JsonSchema }>;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema: JsonSchema; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }>; required?: boolean };
  responses?: Record<string, OpenApiResponse>;
}

/** Every method and path the app registered, with the input schemas its OpenAPI document (or zod) gives. */
function routesOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Route[] {
  const routes = new Map<string, Route>();
  for (const route of registered) {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const key = `${method} ${route.url}`;
      if (routes.has(key)) continue;
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const documentMethod = (method === 'HEAD' ? 'GET' : method).toLowerCase();
      const operation = document.paths[path]?.[documentMethod];
      const fromZod = (schema: unknown) =>
        schema instanceof z.ZodType
          ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
          : undefined;
      const querySchema = operation ? undefined : fromZod(route.schema?.querystring);
      const queryParams =
        operation?.parameters
          ?.filter((parameter) => parameter.in === 'query')
          .map(({ name, schema }) => ({ name, schema })) ??
        Object.entries(querySchema?.properties ?? {}).map(([name, schema]) => ({ name, schema }));
      routes.set(key, {
        method,
        url: route.url,
        api: route.url === '/api' || route.url.startsWith('/api/'),
        bodySchema: operation
          ? operation.requestBody?.content?.['application/json']?.schema
          : fromZod(route.schema?.body),
        queryParams,
        operation:
          operation && method !== 'HEAD'
            ? { path, method: documentMethod, responses: operation.responses ?? {}, document: operation }
            : undefined,
      });
    }
  }
  return [...routes.values()];
}

/**
 * The contract of the OpenAPI document, as a tool would read it: whether an operation documents a status
 * (exactly or by its range, `4XX`), and whether an answer's body is valid against the schema it documents.
 */
function contractOf(document: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const pointer = (...parts: string[]) =>
    parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  /** The validator of the schema at `parts` of the document. */
  const validatorAt = (...parts: string[]) => {
    const ref = `openapi#/${pointer(...parts)}`;
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    return validate;
  };
  return {
    /**
     * Whether the document allows the request as it was sent: signed in, every path parameter and header it
     * declares valid, no query, and the body its schema (none when it declares none). Such a request may be
     * refused by a rule of the product (rule_violated, not_found, conflict...), never as malformed input.
     */
    allows(operation: NonNullable<Route['operation']>, request: FuzzRequest): boolean {
      if (request.who !== 'signed-in' || request.query !== '') return false;
      const { path, method, document } = operation;
      const parameters = document.parameters ?? [];
      for (const [index, parameter] of parameters.entries()) {
        const value =
          parameter.in === 'path'
            ? request.params[parameter.name]
            : parameter.in === 'header'
              ? Object.entries(request.headers).find(
                  ([name]) => name.toLowerCase() === parameter.name.toLowerCase(),
                )?.[1]
              : undefined;
        if (value === undefined) {
          if (parameter.required) return false;
          continue;
        }
        const schema = validatorAt('paths', path, method, 'parameters', String(index), 'schema');
        if (schema(value) !== true) return false;
      }
      const body = document.requestBody?.content?.['application/json'];
      if (!request.body) return !document.requestBody?.required;
      if (!body || request.body.contentType !== 'application/json') return false;
      let value: unknown;
      try {
        value = JSON.parse(request.body.payload);
      } catch {
        return false;
      }
      // A key that would reach an object's prototype is refused by the JSON parser itself, before any schema.
      if (/"(__proto__|constructor|prototype)"\s*:/.test(request.body.payload)) return false;
      const schema = validatorAt(
        'paths',
        path,
        method,
        'requestBody',
        'content',
        'application/json',
        'schema',
      );
      return schema(value) === true;
    },
    /** What is wrong with the answer by the document; null when nothing is. */
    breach(operation: NonNullable<Route['operation']>, status: number, contentType: string, body: string) {
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in operation.responses);
      if (!key) return `answered ${status}, which the operation does not document`;
      const content = operation.responses[key]!.content ?? {};
      const mediaType = contentType.split(';')[0]!.trim();
      if (body === '' || !(mediaType in content)) {
        return Object.keys(content).length === 0 || body === '' || status === 304
          ? null
          : `answered ${mediaType || 'no content type'}, documented: ${Object.keys(content).join(', ')}`;
      }
      // A text answer (an audit file as CSV): its documented media type is what can be checked.
      if (!/^application\/(.+\+)?json$/.test(mediaType)) return null;
      const validate = validatorAt(
        'paths',
        operation.path,
        operation.method,
        'responses',
        key,
        'content',
        mediaType,
        'schema',
      );
      if (validate(JSON.parse(body))) return null;
      return `the answer breaks its documented schema: ${ajv.errorsText(validate.errors)}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------

describe('fuzzing every route', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: { cookie: string; id: string; email: string };
  let bob: { id: string; objects: Objects; streams: string[] };
  let logins = 0;

  beforeAll(async () => {
    t = await createTestApp(
      { modelCallsPerMinute: 0 },
      // The offline model for every call (also for a user with an own key): deterministic, no network.
      OFFLINE_WITH_KEYS,
    );
    app = t.app;
    const a = await signUp(app, 'Alice');
    alice = { cookie: a.cookie, id: a.user.id, email: a.email };
    const b = await signUp(app, 'Bob');
    const objects = await createObjects(as(app, b.cookie));
    bob = {
      id: b.user.id,
      objects,
      streams: [
        ...objects.flow.map(flowStreamId),
        ...objects.execution.map(executionStreamId),
        ...objects.masterSession.map(masterStreamId),
      ],
    };
  });
  afterAll(() => t.close());

  /** Signs Alice in again (from an address of its own, past the sign-in rate limit) when she was signed out. */
  async function keepSignedIn() {
    const me = await app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: alice.cookie } });
    if (me.statusCode === 200 && me.json().id === alice.id) return false;
    logins++;
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: alice.email, password: PASSWORD },
      remoteAddress: `10.99.${logins >> 8}.${logins & 255}`,
    });
    if (login.statusCode !== 200)
      throw new Error(`signing in again failed: ${login.statusCode} ${login.body}`);
    const setCookie = login.headers['set-cookie'];
    alice.cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
      .map((c) => c.split(';')[0])
      .join('; ');
    return true;
  }

  it('answers every generated request below 500, refusals as problems, and a refusal stores nothing', async () => {
    const document = (await as(app, alice.cookie).get('/api/openapi.json')).json();
    // Each route keeps its index in the whole list, and so its seed, when FUZZ_ROUTE picks some.
    const routes = routesOf(document)
      .map((route, index) => ({ ...route, index }))
      .filter((route) => !ONLY || ONLY.test(`${route.method} ${route.url}`));
    const contract = contractOf(document);
    const snapshots = await snapshotter(t.db.sql);
    const bobBefore = await checksumOf(t.db.sql, bob.id, bob.streams);
    console.log(
      `fuzz: FUZZ_SEED=${SEED} (${SEED_SOURCE}), ${routes.length} routes, ${API_RUNS} runs per API route`,
    );

    const failures: string[] = [];
    const statuses = new Map<string, Map<number, number>>();
    const durations = new Map<string, number>();
    let changed = false;
    let requests = 0;
    let baseline = await snapshots.take();
    const started = Date.now();

    /** Sends one request and checks its answer, and what it stored against the data before it. */
    async function send(route: Route, request: FuzzRequest) {
      requests++;
      const name = `${route.method} ${route.url}`;
      const cookie =
        request.who === 'signed-in'
          ? alice.cookie
          : request.who === 'bad-cookie'
            ? `workbench.sid=${encodePart(request.query || 'garbage')}`
            : undefined;
      const headers: Record<string, string> = { ...request.headers };
      if (cookie) headers.cookie = cookie;
      if (request.body?.contentType !== undefined) headers['content-type'] = request.body.contentType;
      const response = await app.inject({
        method: route.method,
        url: urlOf(route, request),
        headers,
        remoteAddress: request.remoteAddress,
        ...(request.body ? { payload: request.body.payload } : {}),
      });
      const status = response.statusCode;
      const seen = statuses.get(name) ?? new Map<number, number>();
      statuses.set(name, seen.set(status, (seen.get(status) ?? 0) + 1));
      const problem = (what: string) =>
        new Error(
          `${what}\n  request: ${described(route, request)}\n  answer: ${status} ${shorten(response.body, 500)}`,
        );

      if (status >= 500) throw problem(`answered ${status}${lastServerError()}`);
      if (route.operation) {
        const breach = contract.breach(
          route.operation,
          status,
          String(response.headers['content-type'] ?? ''),
          response.body,
        );
        if (breach) throw problem(`${breach} (the OpenAPI document and the server disagree)`);
        const malformed = status === 400 && /"code":"invalid_input"/.test(response.body);
        if (malformed && contract.allows(route.operation, request)) {
          throw problem(
            'refused as malformed a request the OpenAPI document allows (the document and the server disagree)',
          );
        }
      }
      // Work accepted to run after the answer (an Execute All) is followed to its end first, so that what it
      // writes is not taken for what the next request wrote.
      const location = response.headers.location;
      if (status === 202 && typeof location === 'string') {
        const follow: Call = async (method, url) => {
          const answer = await app.inject({ method, url, headers: cookie ? { cookie } : {} });
          return { status: answer.statusCode, body: answer.json() };
        };
        const runAllId = location.split('/').at(-1)!;
        await executeAllEnded(follow, location.split('/')[4]!, runAllId);
      }
      const after = await snapshots.take();
      if (status >= 400) {
        if (route.method !== 'HEAD') {
          const refusal = (() => {
            try {
              return JSON.parse(response.body) as { message?: unknown; code?: unknown; status?: unknown };
            } catch {
              return {};
            }
          })();
          if (
            typeof refusal.message !== 'string' ||
            typeof refusal.code !== 'string' ||
            refusal.status !== status ||
            !String(response.headers['content-type']).startsWith('application/problem+json')
          ) {
            throw problem('a refusal that is not a problem (application/problem+json with code and message)');
          }
        }
        const tables = changedTables(baseline, after);
        if (tables.length > 0) {
          const appended = await eventTypesAfter(t.db.sql, baseline.events!);
          throw problem(
            `a refusal changed stored data: ${tables.join(', ')} (events: ${appended.join(', ')})`,
          );
        }
      } else if (route.method !== 'GET' && route.method !== 'HEAD') {
        changed = true;
      }
      baseline = after;
      if (response.headers['set-cookie'] && (await keepSignedIn())) baseline = await snapshots.take();
    }

    const check = async <T>(what: string, seed: number, property: fc.IAsyncProperty<[T]>, runs: number) => {
      try {
        await fc.assert(property, {
          seed,
          numRuns: runs,
          endOnFailure: !process.env.FUZZ_SHRINK,
          includeErrorInReport: true,
        });
      } catch (error) {
        failures.push(`${what} (FUZZ_SEED=${SEED}):\n${shorten(String(error), 4000)}`);
      }
    };
    const othersUntouched = async () => (await checksumOf(t.db.sql, bob.id, bob.streams)) === bobBefore;

    // Each route alone, from fresh objects.
    let mine = await createObjects(as(app, alice.cookie));
    let previous = '';
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      // Successful mutations may have deleted or changed the objects: each route starts from fresh ones.
      if ((await keepSignedIn()) || changed) {
        mine = await createObjects(as(app, alice.cookie)).catch((error: Error) => {
          throw new Error(`after ${previous} (FUZZ_SEED=${SEED}): ${error.message}`);
        });
      }
      previous = name;
      changed = false;
      baseline = await snapshots.take();
      const routeStarted = Date.now();
      const requestArb = requestsFor(route, mine, bob.objects);
      const runs = !route.api ? FILE_RUNS : route.method === 'HEAD' ? HEAD_RUNS : API_RUNS;
      await check(
        `${name} (FUZZ_ROUTE='^${name}$')`,
        SEED + route.index,
        fc.asyncProperty(requestArb, (request) => send(route, request)),
        runs,
      );
      durations.set(name, Date.now() - routeStarted);
      if (!(await othersUntouched())) {
        failures.push(`${name}: changed another user's objects (FUZZ_SEED=${SEED})`);
        break;
      }
    }

    // Then the API's routes in one random sequence over the same objects: a row edited then run, a step
    // changed then its flow run, an object deleted then named again.
    const apiRoutes = routes.filter((route) => route.api && route.method !== 'HEAD');
    if (apiRoutes.length > 0 && failures.length === 0) {
      await keepSignedIn();
      mine = await createObjects(as(app, alice.cookie));
      baseline = await snapshots.take();
      // Each request carries its route (and still prints as the request it is).
      const mixed: fc.Arbitrary<FuzzRequest & { route: Route }> = fc.oneof(
        ...apiRoutes.map((route) =>
          requestsFor(route, mine, bob.objects).map((request) => Object.assign(request, { route })),
        ),
      );
      await check(
        'a sequence of every route',
        SEED - 1,
        fc.asyncProperty(mixed, (request) => send(request.route, request)),
        MIXED_RUNS,
      );
      if (!(await othersUntouched()))
        failures.push(`the sequence changed another user's objects (FUZZ_SEED=${SEED})`);
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const answered = [...statuses.values()].flatMap((seen) => [...seen]);
    const total = (test: (status: number) => boolean) =>
      answered.filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);
    console.log(
      `fuzz: ${requests} requests to ${routes.length} routes in ${seconds} s: ${total((s) => s < 300)} 2xx, ` +
        `${total((s) => s >= 300 && s < 400)} 3xx, ${total((s) => s >= 400)} 4xx`,
    );
    if (failures.length > 0 || process.env.FUZZ_VERBOSE) {
      console.log(
        [...statuses]
          .map(
            ([name, seen]) =>
              `  ${name} (${durations.get(name) ?? '-'} ms): ${[...seen].map(([status, n]) => `${status}×${n}`).join(' ')}`,
          )
          .join('\n'),
      );
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
    // The document and the registered routes agree: every documented call was among those fuzzed.
    const fuzzed = new Set(routes.map((route) => `${route.method} ${route.url}`));
    if (!ONLY) {
      for (const [path, operations] of Object.entries(document.paths as Record<string, object>)) {
        for (const method of Object.keys(operations)) {
          expect(fuzzed, `${method} ${path}`).toContain(
            `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
          );
        }
      }
      expect(apiRoutes.length).toBeGreaterThan(50);
    }
  }, 600_000);
});

describe('a refused step run writes nothing', () => {
  let t: TestApp;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp({}, OFFLINE_WITH_KEYS);
    client = as(t.app, (await signUp(t.app, 'Chi')).cookie);
  });
  afterAll(() => t.close());

  /** A flow of one step whose execution has run it, and whose step was changed since. */
  async function changedFlow() {
    const flow = await ok(
      client.post('/api/flows', { name: 'Changed', description: 'Changed since' }),
      'flow',
    );
    const step = await ok(
      client.post('/api/steps', { flowId: flow.id, order: 1, name: 'One', systemPrompt: 'Write.' }),
      'step',
    );
    const execution = await ok(client.post(`/api/flows/${flow.id}/execute`), 'execution');
    await ok(client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, {}), 'run');
    await ok(client.put(`/api/steps/${step.id}`, { systemPrompt: 'Write more.' }), 'step edit');
    return { url: `/api/executions/${execution.id}/steps/${step.id}/execute`, executionId: execution.id };
  }

  it('appends nothing, not even the sync of steps changed since the last run', async () => {
    const { url, executionId } = await changedFlow();
    const before = await t.store.readStream(executionStreamId(executionId));
    const refused = await client.post(url, { loopIteration: 5 });
    expect(refused.statusCode).toBe(404);
    const after = await t.store.readStream(executionStreamId(executionId));
    expect(after.version).toBe(before.version);
    // The run that is not refused syncs the steps and starts, in one command.
    const run = await client.post(url, {});
    expect(run.statusCode).toBe(200);
    const types = (await t.store.readStream(executionStreamId(executionId))).events
      .slice(before.events.length)
      .map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['StepsSynced', 'StepRunStarted']);
  });

  it('leaves the own key as it was; a run that starts marks it used', async () => {
    await ok(client.post('/api/user/api-keys', { keyName: 'Own', apiKey: 'not-a-real-key' }), 'key');
    const { url } = await changedFlow();
    const lastUsed = async () =>
      (await t.db.sql<{ lastUsed: Date }[]>`SELECT last_used FROM user_api_keys`)[0]!.lastUsed.getTime();
    // Used long ago: a change now cannot fall within the same millisecond.
    await t.db.sql`UPDATE user_api_keys SET last_used = now() - interval '1 hour'`;
    const before = await lastUsed();
    expect((await client.post(url, { loopIteration: 5 })).statusCode).toBe(404);
    expect(await lastUsed()).toBe(before);
    // A run that starts goes to the own key (here answered offline by the test's model): it was used.
    expect((await client.post(url, {})).statusCode).toBe(200);
    expect(await lastUsed()).toBeGreaterThan(before);
  });
});
