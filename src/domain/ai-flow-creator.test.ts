import { describe, expect, it } from 'vitest';
import {
  asProposal,
  CONVERSATION_HISTORY_MAX_LENGTH,
  CREATOR_MESSAGE_MAX_LENGTH,
  conversationHistoryOf,
  improveRequestSchema,
  proposalRequestSchema,
} from './ai-flow-creator';

describe('the creator conversation as text', () => {
  it('keeps the latest part when it is too long', () => {
    const old = 'a'.repeat(CONVERSATION_HISTORY_MAX_LENGTH);
    const text = conversationHistoryOf([
      { speaker: 'user', text: old },
      { speaker: 'user', text: 'the latest wish' },
    ]);
    expect(text).toHaveLength(CONVERSATION_HISTORY_MAX_LENGTH);
    expect(text.endsWith('User: the latest wish')).toBe(true);
  });
});

describe('a generated workflow as a proposal', () => {
  it('orders and numbers the steps and proposes modes other than multiple as single', () => {
    const proposal = asProposal({
      name: 'Blog',
      description: 'A blog post',
      steps: [
        { name: 'Pick', order: 3, systemPrompt: 'Pick one.', outputMode: 'multiple_choice' },
        { name: 'Ideas', order: 1, systemPrompt: 'Ideas.', outputMode: 'multiple', inputSources: [] },
        { name: 'Draft', order: 2, systemPrompt: 'Draft.', outputMode: 'loop', requiresUserInput: true },
      ],
    });
    expect(proposal.steps).toEqual([
      {
        name: 'Ideas',
        order: 1,
        systemPrompt: 'Ideas.',
        outputMode: 'multiple',
        requiresUserInput: false,
        inputSources: [],
      },
      {
        name: 'Draft',
        order: 2,
        systemPrompt: 'Draft.',
        outputMode: 'single',
        requiresUserInput: true,
        inputSources: [],
      },
      {
        name: 'Pick',
        order: 3,
        systemPrompt: 'Pick one.',
        outputMode: 'single',
        requiresUserInput: false,
        inputSources: [],
      },
    ]);
  });
});

describe('creator request bodies', () => {
  it('refuse blank and oversized text', () => {
    expect(improveRequestSchema.safeParse({ description: 'Viết blog' }).success).toBe(true);
    expect(improveRequestSchema.safeParse({ description: '  \n ' }).success).toBe(false);
    expect(improveRequestSchema.safeParse({}).success).toBe(false);
    expect(
      improveRequestSchema.safeParse({ description: 'x'.repeat(CREATOR_MESSAGE_MAX_LENGTH + 1) }).success,
    ).toBe(false);
    expect(proposalRequestSchema.safeParse({ conversationHistory: 'User: hi' }).success).toBe(true);
    expect(proposalRequestSchema.safeParse({ conversationHistory: '' }).success).toBe(false);
    expect(
      proposalRequestSchema.safeParse({
        conversationHistory: 'x'.repeat(CONVERSATION_HISTORY_MAX_LENGTH + 1),
      }).success,
    ).toBe(false);
  });
});
