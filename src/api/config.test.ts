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
