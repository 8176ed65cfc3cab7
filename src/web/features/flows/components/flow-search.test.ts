import { describe, expect, it } from 'vitest';
import { matchesSearch } from './flow-search';

const flow = { name: 'Blog về Trà', description: 'Ý tưởng rồi BÀI VIẾT' };

describe('matchesSearch', () => {
  it('matches a case-insensitive substring of the name or of the description', () => {
    expect(matchesSearch(flow, 'trà')).toBe(true);
    expect(matchesSearch(flow, 'BLOG')).toBe(true);
    expect(matchesSearch(flow, 'bài viết')).toBe(true);
    expect(matchesSearch(flow, 'g về t')).toBe(true);
  });

  it('does not match text found in neither', () => {
    expect(matchesSearch(flow, 'cà phê')).toBe(false);
    expect(matchesSearch(flow, 'blog bài')).toBe(false);
  });

  it('lets every flow through an empty or blank search, and ignores surrounding spaces', () => {
    expect(matchesSearch(flow, '')).toBe(true);
    expect(matchesSearch(flow, '   ')).toBe(true);
    expect(matchesSearch(flow, '  trà ')).toBe(true);
  });
});
