import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnvironment } from './config';

describe('MASTER_MODE_API_HOSTS', () => {
  it('is empty by default: master mode api rows are refused', () => {
    expect(parseEnvironment({}).masterModeApiHosts).toEqual([]);
    expect(parseEnvironment({ MASTER_MODE_API_HOSTS: ' ' }).masterModeApiHosts).toEqual([]);
  });

  it('reads a comma-separated list of hosts, with or without a port', () => {
    expect(
      parseEnvironment({ MASTER_MODE_API_HOSTS: 'API.example.com, 127.0.0.1:4000,,[::1]:8080' })
        .masterModeApiHosts,
    ).toEqual(['api.example.com', '127.0.0.1:4000', '[::1]:8080']);
  });

  it('stops start-up on an entry that is not a host', () => {
    expect(() => parseEnvironment({ MASTER_MODE_API_HOSTS: 'https://api.example.com/v1' })).toThrow(
      ConfigError,
    );
    expect(() => parseEnvironment({ MASTER_MODE_API_HOSTS: 'a.com, bad host' })).toThrow(
      /MASTER_MODE_API_HOSTS.*comma-separated list of host or host:port entries/,
    );
  });
});

describe('notifications', () => {
  it('sends no mail and calls no webhook by default', () => {
    const config = parseEnvironment({});
    expect(config.smtpUrl).toBeUndefined();
    expect(config.webhookHosts).toEqual([]);
    expect(config.queuePollSeconds).toBe(2);
    expect(config.webhookRetryDelaySeconds).toBe(30);
  });

  it('reads SMTP_URL, MAIL_FROM and WEBHOOK_HOSTS by the rule of MASTER_MODE_API_HOSTS', () => {
    const config = parseEnvironment({
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Workbench <no-reply@example.com>',
      WEBHOOK_HOSTS: 'Hooks.example.com, 127.0.0.1:4000',
    });
    expect(config.smtpUrl).toBe('smtps://user:pass@mail.example.com:465');
    expect(config.mailFrom).toBe('Workbench <no-reply@example.com>');
    expect(config.webhookHosts).toEqual(['hooks.example.com', '127.0.0.1:4000']);
  });

  it('reads MODEL_ENDPOINT_HOSTS by the rule of MASTER_MODE_API_HOSTS: none by default', () => {
    expect(parseEnvironment({}).modelEndpointHosts).toEqual([]);
    expect(
      parseEnvironment({ MODEL_ENDPOINT_HOSTS: 'LLM.example.com, 127.0.0.1:11434' }).modelEndpointHosts,
    ).toEqual(['llm.example.com', '127.0.0.1:11434']);
    expect(() => parseEnvironment({ MODEL_ENDPOINT_HOSTS: 'http://llm.example.com/v1' })).toThrow(
      /MODEL_ENDPOINT_HOSTS/,
    );
  });

  it('stops start-up on an SMTP_URL that is not smtp:// or smtps://, and on a webhook entry that is not a host', () => {
    expect(() => parseEnvironment({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => parseEnvironment({ WEBHOOK_HOSTS: 'https://hooks.example.com/x' })).toThrow(/WEBHOOK_HOSTS/);
  });

  it('reads the model settings: MODELS as provider:name ids, DEFAULT_MODEL, each provider key and address', () => {
    const config = parseEnvironment({
      MODELS: ' openai:gpt-4.1-mini, anthropic:claude-sonnet-4-5,ollama:qwen3:8b ,',
      DEFAULT_MODEL: 'ollama:qwen3:8b',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      ANTHROPIC_API_KEY: 'sk-ant',
    });
    expect(config.models).toEqual(['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-5', 'ollama:qwen3:8b']);
    expect(config).toMatchObject({
      defaultModel: 'ollama:qwen3:8b',
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
      anthropicApiKey: 'sk-ant',
    });
    expect(parseEnvironment({}).models).toEqual([]);
    expect(() => parseEnvironment({ MODELS: 'gpt-4' })).toThrow(/MODELS/);
    expect(() => parseEnvironment({ DEFAULT_MODEL: 'openai' })).toThrow(/DEFAULT_MODEL/);
    expect(() => parseEnvironment({ OPENAI_BASE_URL: 'file:///etc/passwd' })).toThrow(/OPENAI_BASE_URL/);
  });

  it("reads PUBLIC_URL without its trailing slash, else the server's own address; refuses what is not http(s)", () => {
    expect(parseEnvironment({ PUBLIC_URL: 'https://flows.example.com/' }).publicUrl).toBe(
      'https://flows.example.com',
    );
    expect(parseEnvironment({ PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
    expect(parseEnvironment({ PUBLIC_URL: 'https://flows.example.com' }).publicUrlSet).toBe(true);
    expect(parseEnvironment({ PUBLIC_URL: ' ' }).publicUrlSet).toBe(false);
    expect(() => parseEnvironment({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
    expect(() => parseEnvironment({ PUBLIC_URL: 'flows.example.com' })).toThrow(/PUBLIC_URL/);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default: X-Forwarded-* are not believed', () => {
    expect(parseEnvironment({}).trustProxy).toBe(false);
    expect(parseEnvironment({ TRUST_PROXY: ' ' }).trustProxy).toBe(false);
    expect(parseEnvironment({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('trusts every peer with true, else the listed addresses, ranges and named ranges', () => {
    expect(parseEnvironment({ TRUST_PROXY: 'TRUE' }).trustProxy).toBe(true);
    expect(
      parseEnvironment({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,,::1,fd00::/8,loopback' }).trustProxy,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
  });

  it('stops start-up on a hop count or anything that is not an address', () => {
    for (const value of ['1', 'yes', '10.0.0.0/33', 'proxy.example.com', ',']) {
      expect(() => parseEnvironment({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be true, false, or/);
    }
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('is 20 by default, with a job queue pool of 4; a small pool gives a small queue pool', () => {
    expect(parseEnvironment({})).toMatchObject({ databasePoolSize: 20, jobQueuePoolSize: 4 });
    expect(parseEnvironment({ DATABASE_POOL_SIZE: '4' })).toMatchObject({
      databasePoolSize: 4,
      jobQueuePoolSize: 2,
    });
    expect(parseEnvironment({ DATABASE_POOL_SIZE: '100' }).jobQueuePoolSize).toBe(4);
  });

  it('stops start-up on a pool too small to hold the instance lock and work beside it, or not a number', () => {
    for (const value of ['2', '0', 'many', '2.5']) {
      expect(() => parseEnvironment({ DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
});
