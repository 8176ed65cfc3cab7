import { describe, expect, it } from 'vitest';
import {
  API_KEY_BASE_URL_MAX_LENGTH,
  API_KEY_NAME_MAX_LENGTH,
  allowedEndpointUrl,
  BASE_URL_NOT_TAKEN,
  BASE_URL_REQUIRED,
  FILL_IN_EVERYTHING,
  keyEndpoint,
  keyRejected,
  keyTypesAnswering,
  newApiKeyForm,
  newApiKeySchema,
} from './api-key';
import { DomainError } from './errors';

const messagesOf = (body: object) =>
  newApiKeySchema.safeParse(body).error?.issues.map((issue) => [issue.path, issue.message]);

describe('a new own API key', () => {
  it('trims both fields and is a gemini key unless told, without a base URL', () => {
    expect(newApiKeySchema.parse({ keyName: ' Cá nhân ', apiKey: ' AIza123 ' })).toEqual({
      keyName: 'Cá nhân',
      apiKey: 'AIza123',
      keyType: 'gemini',
      baseUrl: null,
    });
  });

  it('takes an openai or anthropic key without a base URL (a blank one is none)', () => {
    expect(newApiKeySchema.parse({ keyName: 'O', apiKey: 'sk-1', keyType: 'openai', baseUrl: '  ' })).toEqual(
      {
        keyName: 'O',
        apiKey: 'sk-1',
        keyType: 'openai',
        baseUrl: null,
      },
    );
    expect(newApiKeySchema.parse({ keyName: 'A', apiKey: 'sk-ant', keyType: 'anthropic' }).keyType).toBe(
      'anthropic',
    );
  });

  it('needs a base URL for an openai-compatible key, and refuses one for any other type', () => {
    expect(
      newApiKeySchema.parse({
        keyName: 'Mine',
        apiKey: 'k',
        keyType: 'openai-compatible',
        baseUrl: ' https://llm.example.com/v1 ',
      }).baseUrl,
    ).toBe('https://llm.example.com/v1');
    const hosts = ['llm.example.com'];
    const endpointOf = (body: object) => keyEndpoint(newApiKeySchema.parse(body), hosts);
    expect(
      endpointOf({
        keyName: 'M',
        apiKey: 'k',
        keyType: 'openai-compatible',
        baseUrl: 'https://llm.example.com/v1/',
      }),
    ).toBe('https://llm.example.com/v1');
    expect(endpointOf({ keyName: 'M', apiKey: 'k', keyType: 'gemini', baseUrl: '  ' })).toBeNull();
    expect(() => endpointOf({ keyName: 'Mine', apiKey: 'k', keyType: 'openai-compatible' })).toThrow(
      BASE_URL_REQUIRED,
    );
    expect(() =>
      endpointOf({ keyName: 'Mine', apiKey: 'k', keyType: 'anthropic', baseUrl: 'https://a.example.com' }),
    ).toThrow(BASE_URL_NOT_TAKEN);
    // The form says so beside the field before anything is sent.
    expect(
      newApiKeyForm.safeParse({ keyName: 'M', apiKey: 'k', keyType: 'openai-compatible' }).error?.issues,
    ).toMatchObject([{ path: ['baseUrl'], message: BASE_URL_REQUIRED }]);
  });

  it('refuses an unknown type and a base URL over its limit', () => {
    expect(newApiKeySchema.safeParse({ keyName: 'N', apiKey: 'k', keyType: 'mistral' }).success).toBe(false);
    const baseUrl = `https://llm.example.com/${'v'.repeat(API_KEY_BASE_URL_MAX_LENGTH)}`;
    expect(
      newApiKeySchema.safeParse({ keyName: 'N', apiKey: 'k', keyType: 'openai-compatible', baseUrl }).success,
    ).toBe(false);
  });

  it('refuses a blank field with the one message, without a field name', () => {
    expect(messagesOf({ keyName: 'Cá nhân', apiKey: '   ' })).toEqual([[[], FILL_IN_EVERYTHING]]);
  });

  it('refuses a name over its limit', () => {
    const keyName = 'x'.repeat(API_KEY_NAME_MAX_LENGTH + 1);
    expect(newApiKeySchema.safeParse({ keyName, apiKey: 'AIza123' }).success).toBe(false);
  });
});

describe("an own key's endpoint", () => {
  const hosts = ['llm.example.com', '127.0.0.1:11434'];

  it('is allowed on a listed host, and kept without its trailing slash', () => {
    expect(allowedEndpointUrl('https://LLM.example.com/v1/', hosts)).toBe('https://llm.example.com/v1');
    expect(allowedEndpointUrl('http://127.0.0.1:11434/v1', hosts)).toBe('http://127.0.0.1:11434/v1');
  });

  it('is refused (rule_violated) anywhere else, naming MODEL_ENDPOINT_HOSTS', () => {
    for (const url of [
      'http://169.254.169.254/v1',
      'http://127.0.0.1:5432',
      'https://llm.example.com:8443/v1',
      'ftp://llm.example.com/v1',
      'https://user:pw@llm.example.com/v1',
      'not a url',
    ]) {
      expect(() => allowedEndpointUrl(url, hosts), url).toThrow(DomainError);
    }
    expect(() => allowedEndpointUrl('http://169.254.169.254/v1', hosts)).toThrow(/MODEL_ENDPOINT_HOSTS/);
    expect(() => allowedEndpointUrl('https://llm.example.com/v1', [])).toThrow(/MODEL_ENDPOINT_HOSTS trống/);
  });
});

describe('which own keys answer a model', () => {
  it("answers each provider's models with its own keys only", () => {
    expect(keyTypesAnswering('gemini')).toEqual(['gemini']);
    expect(keyTypesAnswering('offline')).toEqual(['gemini']);
    expect(keyTypesAnswering('openai')).toEqual(['openai', 'openai-compatible']);
    expect(keyTypesAnswering('anthropic')).toEqual(['anthropic']);
    expect(keyTypesAnswering('ollama')).toEqual([]);
  });

  it('names the provider that refused a key', () => {
    expect(keyRejected('Anthropic', 'invalid x-api-key')).toBe(
      'Anthropic không nhận API key này: invalid x-api-key',
    );
  });
});
