import { describe, expect, it } from 'vitest';
import { isStorableText, storableText, unstorableTextPath } from './storable-text';

describe('storable text', () => {
  it('refuses NUL and lone surrogates, and keeps every well-formed text', () => {
    expect(isStorableText('Tiếng Việt, emoji 🎉, tabs\tand\nlines')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\ud800')).toBe(false);
    expect(isStorableText('x\udc00')).toBe(false);
    expect(isStorableText('\ud83c\udf89')).toBe(true);
  });

  it('makes outside text storable: NUL dropped, a lone surrogate replaced, well-formed text as it is', () => {
    expect(storableText('a\u0000b\ud800c\udc00')).toBe('ab\ufffdc\ufffd');
    expect(storableText('emoji \ud83c\udf89')).toBe('emoji \ud83c\udf89');
  });

  it('names where the first unstorable text is, in values and in keys', () => {
    expect(unstorableTextPath({ name: 'ok', steps: [{ prompt: 'fine' }, { prompt: 'bad\u0000' }] })).toEqual([
      'steps',
      1,
      'prompt',
    ]);
    expect(unstorableTextPath({ data: { 'k\ud800': 1 } })).toEqual(['data', 'k\ud800']);
    expect(unstorableTextPath('\u0000')).toEqual([]);
    expect(unstorableTextPath({ a: 1, b: [true, null, 'x'] })).toBeNull();
  });

  it('walks a deeply nested value without running out of stack', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextPath(deep)).toHaveLength(100_000);
  });
});
