import { describe, expect, it } from 'vitest';
import { prefersMinimal } from './request-schemas';

describe('prefersMinimal', () => {
  it.each([
    'return=minimal',
    'RETURN=Minimal',
    'return="minimal"',
    ' return = minimal ',
    'respond-async, return=minimal',
    'return=minimal; foo=bar',
    'wait=10, return=minimal;x',
  ])('heeds %j', (header) => {
    expect(prefersMinimal(header)).toBe(true);
  });

  it('heeds it in any of several Prefer headers', () => {
    expect(prefersMinimal(['respond-async', 'return=minimal'])).toBe(true);
  });

  it.each([
    undefined,
    '',
    'return=representation',
    'returns=minimal',
    'return',
    'minimal',
    'foo; return=minimal',
    'return=minimalist',
  ])('does not take %j for it', (header) => {
    expect(prefersMinimal(header)).toBe(false);
  });
});
