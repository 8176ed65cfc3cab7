import { describe, expect, it } from 'vitest';
import { reviewLink } from './review-link';

describe('reviewLink', () => {
  it('opens the run screen of the flow at the execution and step under review', () => {
    const path = reviewLink('f1', 'e1', 's1');
    expect(path).toBe('/flows/f1?mode=run&execution=e1&step=s1');
    const url = new URL(path, 'http://localhost');
    expect(url.searchParams.get('execution')).toBe('e1');
    expect(url.searchParams.get('step')).toBe('s1');
  });
});
