import { describe, expect, it } from 'vitest';
import { type DiffPart, diffText } from './text-diff';

const side = (parts: DiffPart[], kind: 'removed' | 'added') =>
  parts
    .filter((p) => p.kind === 'same' || p.kind === kind)
    .map((p) => p.text)
    .join('');

describe('diffText', () => {
  it('marks the words taken out and put in, keeping the rest', () => {
    expect(diffText('Green tea is good for you.', 'Green tea is very good for everyone.')).toEqual([
      { kind: 'same', text: 'Green tea is ' },
      { kind: 'added', text: 'very ' },
      { kind: 'same', text: 'good for ' },
      { kind: 'removed', text: 'you.' },
      { kind: 'added', text: 'everyone.' },
    ]);
  });

  it('reads a rewritten sentence as the old one removed and the new one added, not word by word', () => {
    expect(diffText('The cat sat on the mat.', 'A dog ran to its bed.')).toEqual([
      { kind: 'removed', text: 'The cat sat on the mat.' },
      { kind: 'added', text: 'A dog ran to its bed.' },
    ]);
    expect(diffText('Intro.\nThe cat sat.\nOutro.', 'Intro.\nA dog ran.\nOutro.')).toEqual([
      { kind: 'same', text: 'Intro.\n' },
      { kind: 'removed', text: 'The cat sat.' },
      { kind: 'added', text: 'A dog ran.' },
      { kind: 'same', text: '\nOutro.' },
    ]);
  });

  it('gives nothing but the same text when nothing changed, and handles empty sides', () => {
    expect(diffText('Trà xanh', 'Trà xanh')).toEqual([{ kind: 'same', text: 'Trà xanh' }]);
    expect(diffText('', 'Mới')).toEqual([{ kind: 'added', text: 'Mới' }]);
    expect(diffText('Cũ', '')).toEqual([{ kind: 'removed', text: 'Cũ' }]);
    expect(diffText('', '')).toEqual([]);
  });

  it('keeps line breaks, so a multi-line edit shows which lines changed', () => {
    const before = 'Line one\nLine two\nLine three\n';
    const after = 'Line one\nLine 2\nLine three\nLine four\n';
    const parts = diffText(before, after);
    expect(side(parts, 'removed')).toBe(before);
    expect(side(parts, 'added')).toBe(after);
    expect(parts.filter((p) => p.kind === 'removed').map((p) => p.text)).toEqual(['two']);
    expect(parts.filter((p) => p.kind === 'added').map((p) => p.text)).toEqual(['2', '\nLine four']);
  });

  it('falls back to lines when the words differ too much, and both sides still read back exactly', () => {
    const before = Array.from({ length: 1500 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 1500 }, (_, i) => `b${i}`).join(' ');
    const parts = diffText(`${before}\nsame line`, `${after}\nsame line`);
    expect(parts).toEqual([
      { kind: 'removed', text: `${before}\n` },
      { kind: 'added', text: `${after}\n` },
      { kind: 'same', text: 'same line' },
    ]);
  });

  it('reads back both texts for arbitrary edits', () => {
    const cases = [
      ['the cat sat on the mat', 'a cat sat upon the red mat'],
      ['x y z', 'z y x'],
      ['  spaced   out  ', 'spaced out'],
      ['một hai ba bốn', 'hai bốn năm'],
    ] as const;
    for (const [before, after] of cases) {
      const parts = diffText(before, after);
      expect(side(parts, 'removed')).toBe(before);
      expect(side(parts, 'added')).toBe(after);
    }
  });
});
