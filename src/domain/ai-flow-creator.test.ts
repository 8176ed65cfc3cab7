import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_HISTORY_MAX_LENGTH,
  CREATOR_MESSAGE_MAX_LENGTH,
  conversationHistoryOf,
  conversationQuotedIn,
  improveRequestSchema,
  proposalRequestSchema,
  readConversation,
  workflowDescriptionOf,
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

describe('the creator conversation read back', () => {
  it('gives its entries, a proposal with each prompt on one line and its sources from its [[step-N]]', () => {
    const proposal = {
      name: 'Blog trà xanh',
      description: 'Ba bước viết blog.',
      steps: [
        {
          name: 'Ý tưởng',
          order: 1,
          systemPrompt: 'Liệt kê ý tưởng.\n\nNgắn gọn.',
          outputMode: 'multiple' as const,
          requiresUserInput: true,
          inputSources: [],
        },
        {
          name: 'Bài viết (bản nháp)',
          order: 2,
          systemPrompt: 'Viết từ:\n[[step-1]]',
          outputMode: 'single' as const,
          requiresUserInput: false,
          inputSources: ['step-1'],
        },
      ],
    };
    const entries = [
      { speaker: 'user' as const, text: 'Viết blog\n\nvề trà xanh' },
      { speaker: 'improvement' as const, text: 'Mục tiêu: blog.' },
      { speaker: 'proposal' as const, proposal },
      { speaker: 'user' as const, text: 'Thêm bước SEO' },
    ];
    expect(readConversation(conversationHistoryOf(entries))).toEqual([
      entries[0],
      entries[1],
      {
        speaker: 'proposal',
        proposal: {
          name: 'Blog trà xanh',
          description: 'Ba bước viết blog.',
          steps: [
            { ...proposal.steps[0], systemPrompt: 'Liệt kê ý tưởng. Ngắn gọn.', requiresUserInput: false },
            { ...proposal.steps[1], systemPrompt: 'Viết từ: [[step-1]]' },
          ],
        },
      },
      entries[3],
    ]);
  });

  it('is found in the description a proposal is generated from, when that quotes it', () => {
    const history = 'User: Viết blog\n\nAI (improved description): Một bài blog.';
    expect(conversationQuotedIn(workflowDescriptionOf(history))).toBe(history);
    expect(conversationQuotedIn(workflowDescriptionOf('User: Viết blog'))).toBeNull();
  });
});

describe('the description a proposal is generated from', () => {
  it("leads with the user's first message and later wishes, then the whole conversation", () => {
    const history = [
      'User: Viết bài blog về trà xanh',
      'AI (improved description): Một bài blog 800 từ.\n\nGiọng thân thiện.',
      'User: Thêm bước SEO\n\nvà một bước dịch',
    ].join('\n\n');
    expect(workflowDescriptionOf(history)).toBe(
      [
        'Viết bài blog về trà xanh',
        '- Thêm bước SEO\n\nvà một bước dịch',
        `Conversation:\n\n${history}`,
      ].join('\n\n'),
    );
  });

  it('gives user messages alone without the conversation, and any other text as it is', () => {
    expect(workflowDescriptionOf('User: Viết blog')).toBe('Viết blog');
    expect(workflowDescriptionOf('User: Viết blog\n\nUser: ngắn thôi')).toBe('Viết blog\n\n- ngắn thôi');
    expect(workflowDescriptionOf('  A plain description.  ')).toBe('A plain description.');
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
