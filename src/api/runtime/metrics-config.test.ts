import { describe, expect, it } from 'vitest';
import { ConfigError, METRICS_NEED_A_PLACE, parseEnvironment } from './config';

const TOKEN = 'scrape-token-0123456789';

describe('METRICS, METRICS_PORT, METRICS_HOST, METRICS_TOKEN', () => {
  it('serves no metrics by default, nor with METRICS=false, whatever else is set', () => {
    expect(parseEnvironment({}).metrics).toEqual({ serve: 'off' });
    expect(parseEnvironment({ METRICS: '' }).metrics).toEqual({ serve: 'off' });
    expect(
      parseEnvironment({ METRICS: 'false', METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }).metrics,
    ).toEqual({
      serve: 'off',
    });
  });

  it('serves them on a port of their own, on 127.0.0.1 unless METRICS_HOST says, with the token when one is set', () => {
    expect(parseEnvironment({ METRICS: 'true', METRICS_PORT: '9464' }).metrics).toEqual({
      serve: 'own-port',
      host: '127.0.0.1',
      port: 9464,
      token: undefined,
    });
    expect(
      parseEnvironment({ METRICS: 'true', METRICS_PORT: '0', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN })
        .metrics,
    ).toEqual({ serve: 'own-port', host: '0.0.0.0', port: 0, token: TOKEN });
  });

  it("serves them on the app's port only behind METRICS_TOKEN", () => {
    expect(parseEnvironment({ METRICS: 'true', METRICS_TOKEN: ` ${TOKEN} ` }).metrics).toEqual({
      serve: 'app-port',
      token: TOKEN,
    });
  });

  it('stops start-up on METRICS=true with neither a port nor a token, saying what to set', () => {
    expect(() => parseEnvironment({ METRICS: 'true' })).toThrow(ConfigError);
    expect(() => parseEnvironment({ METRICS: 'true' })).toThrow(METRICS_NEED_A_PLACE);
  });

  it('stops start-up on a bad value, naming the variable', () => {
    expect(() => parseEnvironment({ METRICS: 'yes' })).toThrow(/METRICS: must be true or false/);
    expect(() => parseEnvironment({ METRICS: 'true', METRICS_PORT: 'ninety' })).toThrow(
      /METRICS_PORT: must be a number/,
    );
    expect(() => parseEnvironment({ METRICS: 'true', METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => parseEnvironment({ METRICS: 'true', METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 16 characters/,
    );
    expect(() => parseEnvironment({ METRICS: 'true', PORT: '5000', METRICS_PORT: '5000' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
  });
});
