import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, isProbe, startFakeOpenAI } from '../../test/support/fake-openai';
import { createOpenAIProvider } from './openai-provider';
import {
  fitsProbe,
  PROBE_SCHEMA,
  probedForSchema,
  probeSchema,
  type SchemaFinding,
  type SchemaFindings,
  viaOf,
} from './schema-probe';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());

const model = (name = 'qwen3') => createOpenAIProvider({ apiKey: 'k', model: name, baseUrl: fake.url });
const chatsSince = (before: number) =>
  fake.requests.slice(before).filter((r) => r.path.endsWith('/completions'));
const systemOf = (body: { messages?: Array<{ role: string; content: string }> }) =>
  body.messages?.find((m) => m.role === 'system')?.content ?? '';

describe('the probe of a JSON schema', () => {
  it('only the one answer the schema allows fits it', () => {
    expect(fitsProbe('{"probe":"schema-probe-ok"}')).toBe(true);
    expect(fitsProbe(' {"probe": "schema-probe-ok"}\n')).toBe(true);
    expect(fitsProbe('Hello there!')).toBe(false);
    expect(fitsProbe('{"probe":"ok"}')).toBe(false);
    expect(fitsProbe('{"probe":"schema-probe-ok","more":1}')).toBe(false);
    expect(fitsProbe('["schema-probe-ok"]')).toBe(false);
    expect(PROBE_SCHEMA.properties.probe.enum).toHaveLength(1);
  });

  it('sends a schema by the parameter where enforced, by the prompt where refused, by both otherwise', () => {
    expect(viaOf('enforced')).toBe('api');
    expect(viaOf('refused')).toBe('prompt');
    expect(viaOf('ignored')).toBe('both');
    expect(viaOf(null)).toBe('both');
  });

  it.each<[Parameters<FakeOpenAI['handleSchema']>[0], SchemaFinding]>([
    ['enforced', 'enforced'],
    ['ignored', 'ignored'],
    ['refused', 'refused'],
  ])('finds an endpoint that %s the schema', async (handling, finding) => {
    fake.handleSchema(handling);
    fake.respondWith(() => ({ text: 'Hello!' }));
    const before = fake.requests.length;
    expect(await probeSchema(model())).toBe(finding);
    const calls = chatsSince(before);
    expect(calls.every((call) => isProbe(call.body))).toBe(true);
    expect(calls).toHaveLength(handling === 'refused' ? 2 : 1);
    fake.handleSchema('enforced');
  });

  it('learns nothing from a failure that says nothing of the schema', async () => {
    fake.respondWith(() => ({
      status: 404,
      message: 'The model `nope` does not exist',
      code: 'model_not_found',
    }));
    fake.handleSchema('ignored');
    expect(await probeSchema(model('nope'))).toBeNull();
    fake.respondWith(() => ({ status: 401, message: 'Incorrect API key provided' }));
    expect(await probeSchema(model())).toBeNull();
    fake.handleSchema('enforced');
  });
});

describe('a provider probed for its schema', () => {
  const findings = (finding: SchemaFinding | null) => {
    const asked: string[] = [];
    const kept: SchemaFindings = {
      findingFor: async (provider) => {
        asked.push(provider.model);
        return finding;
      },
    };
    return { kept, asked };
  };
  const request = { system: 'Ideas.', prompt: 'Two', json: { schema: { type: 'array' } } };

  it.each<[SchemaFinding | null, boolean, boolean]>([
    ['enforced', true, false],
    ['ignored', true, true],
    ['refused', false, true],
    [null, true, true],
  ])('found %s: sends the parameter %s, the instruction %s', async (finding, parameter, instruction) => {
    fake.respondWith(() => ({ text: '[]' }));
    const { kept, asked } = findings(finding);
    const before = fake.requests.length;
    const answer = await probedForSchema(model(), kept).stream(request).final;
    expect(answer.text).toBe('[]');
    const [call] = chatsSince(before);
    expect(call!.body.response_format !== undefined).toBe(parameter);
    expect(systemOf(call!.body).includes('JSON schema')).toBe(instruction);
    expect(systemOf(call!.body).startsWith('Ideas.')).toBe(true);
    expect(asked).toEqual(['qwen3']);
  });

  it('asks nothing for a request without a schema, or one that says how its schema goes', async () => {
    fake.respondWith(() => ({ text: 'Hi' }));
    const { kept, asked } = findings('refused');
    const provider = probedForSchema(model(), kept);
    await provider.stream({ system: '', prompt: 'Hi' }).final;
    const before = fake.requests.length;
    await provider.stream({ ...request, json: { ...request.json, via: 'api' } }).final;
    expect(chatsSince(before)[0]!.body.response_format).toBeDefined();
    expect(asked).toEqual([]);
  });

  it('leaves a provider that is never probed as it is', () => {
    const plain = { kind: 'offline' as const, model: 'offline', stream: model().stream };
    expect(probedForSchema(plain, findings('refused').kept)).toBe(plain);
  });
});
