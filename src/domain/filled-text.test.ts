import { describe, expect, it } from 'vitest';
import { isFilled, isRequired, requiredText } from './filled-text';
import { createFlowSchema } from './flow';
import { createSessionSchema, SESSION_NAME_REQUIRED } from './master-mode/master-session';

/** Texts that show nothing: spaces with zero-width, bidi, soft-hyphen, BOM and filler characters. */
const INVISIBLE_TEXTS = [
  '\u200b',
  ' \u200b\u200c\u200d\u2060 ',
  '\u202e\u202c',
  '\u200e\u200f',
  '\u00ad',
  '\ufeff',
  '\u180e',
  '\u3164',
  '\u115f\u1160',
  '\uffa0',
  '\u2800',
];

describe('a text that must be filled in', () => {
  it('is not filled by spaces and characters that show nothing', () => {
    for (const text of ['', '   ', '\t\n', ...INVISIBLE_TEXTS])
      expect(isFilled(text), JSON.stringify(text)).toBe(false);
  });

  it('is filled by any character that shows, with invisible ones around it kept', () => {
    for (const text of ['a', '\u200bPlan\u200b', '\u202eabc', 'Kế hoạch', '😀', '\u05d0']) {
      expect(isFilled(text), JSON.stringify(text)).toBe(true);
    }
    expect(requiredText('x', 10).parse(' \u200bPlan ')).toBe('\u200bPlan');
  });

  it('refuses a name of invisible characters where a name is required, with the name field message', () => {
    for (const name of INVISIBLE_TEXTS) {
      const flow = createFlowSchema.safeParse({ name, description: 'D' });
      expect(flow.success, JSON.stringify(name)).toBe(false);
      expect(flow.error?.issues[0]?.message).toBe(isRequired('name'));
      const session = createSessionSchema.safeParse({ name });
      expect(session.error?.issues[0]?.message).toBe(SESSION_NAME_REQUIRED);
    }
  });
});
