import { describe, expect, it } from 'vitest';
import {
  contextSizeKb,
  conversationHistoryText,
  REJECTED_IDEA_MAX_CHARS,
  REJECTED_IDEAS_MAX_CHARS,
  rejectedIdeasText,
  USER_NOTES_MAX_LENGTH,
  userNotesSchema,
} from './conversation-context';
import { DEFAULT_USER_INPUT } from './execution/types';

describe('context size', () => {
  it('is the history and rejected ideas lengths over 1024', () => {
    expect(contextSizeKb({ conversationHistory: 'a'.repeat(1024), rejectedIdeas: 'b'.repeat(512) })).toBe(
      1.5,
    );
  });

  it('is zero for an empty context and leaves the notes out', () => {
    expect(contextSizeKb({ conversationHistory: '', rejectedIdeas: '' })).toBe(0);
    const withNotes = {
      conversationHistory: 'x'.repeat(100),
      rejectedIdeas: '',
      userNotes: 'y'.repeat(5000),
    };
    expect(contextSizeKb(withNotes)).toBeCloseTo(100 / 1024);
  });
});

describe('rejected ideas text', () => {
  it('lists each idea under its step and label, in the order given', () => {
    const text = rejectedIdeasText([
      { stepOrder: 2, label: 'Branch 1', content: ' First idea \n' },
      { stepOrder: 1, label: null, content: 'Second idea' },
      { stepOrder: null, label: null, content: 'Third idea' },
    ]);
    expect(text).toBe(
      '### Step 2 · Branch 1\nFirst idea\n\n### Step 1\nSecond idea\n\n### Rejected idea\nThird idea',
    );
  });

  it('keeps what they add to a prompt bounded: the newest first, each cut, the older ones said to be left out', () => {
    const idea = (n: number, length: number) => ({
      stepOrder: 1,
      label: `Idea ${n}`,
      content: `${n}`.repeat(length),
    });
    const text = rejectedIdeasText(Array.from({ length: 40 }, (_, i) => idea(i % 10, 340_000)));
    expect(text.length).toBeLessThanOrEqual(REJECTED_IDEAS_MAX_CHARS + 100);
    const kept = Math.floor(REJECTED_IDEAS_MAX_CHARS / (REJECTED_IDEA_MAX_CHARS + 20));
    expect(text.startsWith(`(${40 - kept} older rejected ideas are left out)`)).toBe(true);
    // The newest is last, cut to its share.
    expect(text.endsWith(`### Step 1 · Idea 9\n${'9'.repeat(REJECTED_IDEA_MAX_CHARS)}…`)).toBe(true);
  });

  it('skips blank ideas and is empty without any', () => {
    expect(rejectedIdeasText([])).toBe('');
    expect(rejectedIdeasText([{ stepOrder: 1, label: 'Branch 1', content: '  ' }])).toBe('');
  });
});

describe('conversation history text', () => {
  it('gives each turn its step, the input the model was told and the answer', () => {
    const text = conversationHistoryText([
      { stepOrder: 1, stepName: 'Research', userInput: 'coffee shops', answer: 'Three markets.\n' },
      { stepOrder: 2, stepName: null, userInput: '  ', answer: 'Ideas' },
    ]);
    expect(text).toBe(
      `### Step 1: Research\nUser: coffee shops\nAI: Three markets.\n\n### Step 2\nUser: ${DEFAULT_USER_INPUT}\nAI: Ideas`,
    );
  });
});

describe('user notes', () => {
  it('accepts notes up to the limit and refuses longer ones or other fields', () => {
    expect(userNotesSchema.safeParse({ userNotes: 'n'.repeat(USER_NOTES_MAX_LENGTH) }).success).toBe(true);
    expect(userNotesSchema.safeParse({ userNotes: 'n'.repeat(USER_NOTES_MAX_LENGTH + 1) }).success).toBe(
      false,
    );
    expect(userNotesSchema.safeParse({ userNotes: 'n', version: 2 }).success).toBe(false);
    expect(userNotesSchema.safeParse({}).success).toBe(false);
  });
});
