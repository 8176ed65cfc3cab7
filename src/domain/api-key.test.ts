import { describe, expect, it } from 'vitest';
import { API_KEY_NAME_MAX_LENGTH, FILL_IN_EVERYTHING, newApiKeySchema } from './api-key';

describe('a new own API key', () => {
  it('trims both fields and is always a gemini key', () => {
    expect(newApiKeySchema.parse({ keyName: ' Cá nhân ', apiKey: ' AIza123 ' })).toEqual({
      keyName: 'Cá nhân',
      apiKey: 'AIza123',
      keyType: 'gemini',
    });
  });

  it('refuses a blank field with the one message, without a field name', () => {
    const result = newApiKeySchema.safeParse({ keyName: 'Cá nhân', apiKey: '   ' });
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [[], FILL_IN_EVERYTHING],
    ]);
  });

  it('refuses a name over its limit', () => {
    const keyName = 'x'.repeat(API_KEY_NAME_MAX_LENGTH + 1);
    expect(newApiKeySchema.safeParse({ keyName, apiKey: 'AIza123' }).success).toBe(false);
  });
});
