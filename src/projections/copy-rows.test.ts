import { describe, expect, it } from 'vitest';
import { copyText } from './copy-rows';
import { JsonColumn } from './read-model-change';

describe('copyText', () => {
  it('escapes what COPY reads as delimiters or escapes, and nothing else', () => {
    const text = copyText([{ id: 'a', content: 'tab\there\nline\r\\N \\. "quoted" Tiếng Việt 😀' }]);
    expect(text).toBe('a\ttab\\there\\nline\\r\\\\N \\\\. "quoted" Tiếng Việt 😀\n');
  });

  it('writes null as \\N, and JSON, numbers, booleans and dates as PostgreSQL reads them', () => {
    const row = {
      id: 'b',
      none: null,
      missing: undefined,
      json: new JsonColumn({ say: 'a "word"\t', list: [1, null] }),
      absent: new JsonColumn(undefined),
      order: 3,
      approved: false,
      at: new Date('2026-01-02T03:04:05.678Z'),
    };
    expect(copyText([row])).toBe(
      'b\t\\N\t\\N\t{"say":"a \\\\"word\\\\"\\\\t","list":[1,null]}\t\\N\t3\tfalse\t2026-01-02T03:04:05.678Z\n',
    );
  });
});
