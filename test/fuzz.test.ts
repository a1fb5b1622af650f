import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

/**
 * Requests generated from the server's own OpenAPI document: schema-shaped bodies and parameters,
 * bent at random (wrong types, missing and unknown fields, extreme numbers, U+0000, lone
 * surrogates, over-long strings, broken JSON). Whatever arrives, the answer is never a 5xx, and
 * every 4xx carries the error body. Seeded, so a failure replays.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minimum?: number;
  maximum?: number;
};
type Operation = { parameters?: Array<{ in: string; name: string; schema: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };

class Generator {
  constructor(
    private state: number,
    private readonly definitions: Record<string, Schema>,
  ) {}

  random(): number {
    // 31-bit linear congruential generator: small, seedable, good enough for picking.
    this.state = (Math.imul(this.state, 1103515245) + 12345) & 0x7fffffff;
    return this.state / 0x7fffffff;
  }

  pick<T>(choices: readonly T[]): T {
    return choices[Math.floor(this.random() * choices.length)]!;
  }

  odd(): unknown {
    return this.pick([null, 0, -1, 1e308, -1e308, 2 ** 63, 0.5, true, 'x', '', 'x'.repeat(20_000), {}, [], [[[]]], { __proto__: 1 }]);
  }

  string(schema: Schema): string {
    if (schema.enum && this.random() < 0.8) return String(this.pick(schema.enum));
    if (this.random() < 0.5) {
      return this.pick(['', ' ', 'a', 'x'.repeat(101), 'x'.repeat(201), 'x'.repeat(5_000), '\u0000', 'a\u0000b', '\ud800', 'cut \ud83d', '💥', 'ж', '\u202e', '../..', '%', 'null', '-1', '__proto__', 'constructor', "'; DROP TABLE authors;--", 'https://127.0.0.1/', 'http://169.254.169.254/latest']);
    }
    const length = Math.floor(this.random() * 40);
    let text = '';
    for (let i = 0; i < length; i++) text += String.fromCharCode(this.random() < 0.9 ? 32 + Math.floor(this.random() * 95) : Math.floor(this.random() * 0xffff));
    return text;
  }

  value(schema: Schema | undefined, depth = 0): unknown {
    if (!schema || depth > 6) return this.odd();
    if (schema.$ref) return this.value(this.definitions[schema.$ref.split('/').pop()!], depth + 1);
    if (this.random() < 0.04) return this.odd();
    if (schema.const !== undefined) return schema.const;
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) return this.value(this.pick(variants), depth + 1);
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => this.value(part, depth + 1)));
    const type = Array.isArray(schema.type) ? this.pick(schema.type) : schema.type;
    const low = schema.minimum ?? 0;
    const high = schema.maximum ?? low + 1000;
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer':
        return this.random() < 0.7 ? low + Math.floor(this.random() * Math.min(1000, high - low + 1)) : this.pick([-1, 0, 2 ** 53, 1e20, 1.5]);
      case 'number':
        return this.random() < 0.7 ? low + this.random() * (high - low) : this.pick([-1, 1e308, Number.MIN_VALUE]);
      case 'boolean':
        return this.random() < 0.5;
      case 'null':
        return null;
      case 'array':
        return Array.from({ length: Math.floor(this.random() * (this.random() < 0.1 ? 150 : 4)) }, () => this.value(schema.items, depth + 1));
      default: {
        const object: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          if (this.random() < ((schema.required ?? []).includes(name) ? 0.95 : 0.5)) object[name] = this.value(property, depth + 1);
        }
        if (typeof schema.additionalProperties === 'object') {
          for (let i = Math.floor(this.random() * 3); i > 0; i--) object[this.string({})] = this.value(schema.additionalProperties, depth + 1);
        }
        if (this.random() < 0.05) object[this.string({})] = this.odd();
        return object;
      }
    }
  }
}

const BROKEN_JSON = ['{', '[1,', '"unterminated', 'nul', '{"a":1}}', `{"deep":${'['.repeat(3_000)}`, '\u0000'];

describe('fuzzing every route from the OpenAPI document', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('no input gives a 5xx, and every 4xx has the error body', async () => {
    const spec = (await t.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
    const operations = Object.entries(spec.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
    assert.ok(operations.length > 30, `the document lists ${operations.length} operations`);
    const generate = new Generator(20261121, spec.components?.schemas ?? {});
    const ids: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 600; i++) {
      const { path, method, operation } = generate.pick(operations);
      const concrete = path.replace(/\{\w+\}/g, () => encodeURIComponent((ids.length > 0 && generate.random() < 0.5 ? generate.pick(ids) : generate.string({})).toWellFormed()));
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query' || generate.random() < 0.4) continue;
        const value = generate.value(parameter.schema);
        query.append(parameter.name, (typeof value === 'object' ? JSON.stringify(value) : String(value)).toWellFormed());
      }
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const rawBody = bodySchema ? (generate.random() < 0.03 ? generate.pick(BROKEN_JSON) : JSON.stringify(generate.value(bodySchema))) : undefined;
      const target = `${concrete}${query.size > 0 ? `?${query}` : ''}`;
      const response = await t.request(method.toUpperCase(), target, { rawBody });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const context = `${method.toUpperCase()} ${target.slice(0, 200)} ${rawBody?.slice(0, 300) ?? ''} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      assert.ok(response.status < 500, context);
      if (response.status >= 400) {
        assert.equal(typeof response.body?.code, 'string', context);
        assert.equal(typeof response.body?.message, 'string', context);
        assert.ok(Array.isArray(response.body?.issues), context);
      } else if (typeof response.body?.id === 'string') ids.push(response.body.id);
      else if (typeof response.body?.content?.id === 'string') ids.push(response.body.content.id);
    }
    // The generator must reach past validation, or the test proves little.
    const succeeded = [...statuses].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
    assert.ok(succeeded >= 50, `only ${succeeded} of 600 requests succeeded: ${JSON.stringify([...statuses])}`);
  });
});

/** Every leaf of a schema-shaped value replaced, one at a time, by each hostile value: deterministic, every route. */
function* bent(value: unknown, hostile: readonly unknown[], path: string[] = []): IterableIterator<{ path: string; body: unknown }> {
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const variant of bent(child, hostile, [...path, key])) {
        const copy: any = Array.isArray(value) ? [...value] : { ...value };
        copy[key] = variant.body;
        yield { path: variant.path, body: copy };
      }
    }
    return;
  }
  for (const replacement of hostile) yield { path: `/${path.join('/')}`, body: replacement };
}

const HOSTILE_LEAVES = [1.5, 1e-300, -1, 2 ** 63, 1e300, '\u0000', 'a\u0000b', '\ud800', 'x'.repeat(5_000), [], {}, true, null];
const deeplyNested = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

describe('hostile values in every field of every route', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('fractions, tiny and huge numbers, U+0000, lone surrogates, deep nesting and wrong types never give a 5xx', async () => {
    const spec = (await t.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
    const generate = new Generator(7, spec.components?.schemas ?? {});
    let sent = 0;
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const targets = [path.replace(/\{\w+\}/g, 'x'), path.replace(/\{\w+\}/g, encodeURIComponent('a\u0000b')), path.replace(/\{\w+\}/g, '%ED%A0%80'), path.replace(/\{\w+\}/g, 'y'.repeat(2_001))];
        const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
        const bodies: unknown[] = [undefined];
        if (bodySchema) {
          // A schema-shaped body with every optional field present, bent one leaf at a time.
          let shaped: unknown = {};
          for (let attempt = 0; attempt < 20 && Object.keys(shaped as object).length === 0; attempt++) shaped = generate.value(bodySchema);
          for (const { body } of bent(shaped, HOSTILE_LEAVES)) bodies.push(body);
          bodies.push(deeplyNested(40), deeplyNested(200), [shaped], 'text', 12);
        }
        for (const target of targets) {
          for (const body of target === targets[0] ? bodies : [undefined]) {
            const rawBody = body === undefined ? (bodySchema ? '{}' : undefined) : JSON.stringify(body);
            const response = await t.request(method.toUpperCase(), target, { rawBody });
            sent++;
            const context = `${method.toUpperCase()} ${target.slice(0, 120)} ${rawBody?.slice(0, 200) ?? ''} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
            assert.ok(response.status < 500, context);
            if (response.status >= 400) {
              assert.equal(typeof response.body?.code, 'string', context);
              assert.equal(typeof response.body?.message, 'string', context);
              assert.ok(Array.isArray(response.body?.issues), context);
            }
          }
        }
      }
    }
    assert.ok(sent > 300, `only ${sent} requests were sent`);
  });
});
