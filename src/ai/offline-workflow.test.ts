import { describe, expect, it } from 'vitest';
import {
  type ConversationEntry,
  conversationHistoryOf,
  type WorkflowProposal,
  workflowDescriptionOf,
} from '../domain/ai-flow-creator';
import { workflowJsonSchema } from '../domain/workflow-json';
import { createOfflineProvider } from './offline-provider';
import { askedChange, requestsIn } from './offline-workflow-changes';
import { generateWorkflow } from './workflow-generation';

const offline = createOfflineProvider();

/** The proposal the AI flow creator gets for a conversation, the way its route asks for it. */
const propose = (conversation: ConversationEntry[]) =>
  generateWorkflow(offline, workflowDescriptionOf(conversationHistoryOf(conversation)));

const FIRST = 'Viết bài blog về trà xanh cho người mới uống trà. Giọng văn thân thiện, khoảng 800 từ.';
const IMPROVED = 'Mục tiêu: Viết bài blog về trà xanh cho người mới uống trà.\nCác giai đoạn:\n1. Phân tích';

const opening: ConversationEntry[] = [
  { speaker: 'user', text: FIRST },
  { speaker: 'improvement', text: IMPROVED },
  { speaker: 'user', text: 'OK' },
];

/** The conversation once the first proposal is in it and the user asked `change` of it. */
async function asked(change: string) {
  const first = await propose(opening);
  const conversation: ConversationEntry[] = [
    ...opening,
    { speaker: 'proposal', proposal: first },
    { speaker: 'user', text: change },
  ];
  return { first, conversation, next: await propose(conversation) };
}

const outline = (proposal: WorkflowProposal) =>
  proposal.steps.map((step) => [step.order, step.name, step.outputMode, step.inputSources]);

describe('the AI flow creator with the offline model', () => {
  it('proposes from the first message: named after it, a short description, prompts free of the conversation', async () => {
    const proposal = await propose(opening);
    expect(workflowJsonSchema.safeParse(proposal).success).toBe(true);
    expect(proposal.name).toBe('Viết bài blog về trà xanh cho người mới uống trà');
    expect(proposal.description).toBe(
      '[Offline model] Workflow 3 bước cho: Viết bài blog về trà xanh cho người mới uống trà.',
    );
    for (const step of proposal.steps) {
      expect(step.systemPrompt).not.toMatch(/User:|AI \(|Conversation/);
    }
    expect(proposal.steps[0]!.systemPrompt).toContain('Giọng văn thân thiện, khoảng 800 từ.');
  });

  it("adds the step 'Thêm bước A/B test tiêu đề' asks for after the existing ones, keeping them", async () => {
    const { first, next } = await asked('Thêm bước A/B test tiêu đề');
    expect(workflowJsonSchema.safeParse(next).success).toBe(true);
    expect(next.steps.slice(0, first.steps.length)).toEqual(first.steps);
    expect(next.steps.at(-1)).toMatchObject({
      name: 'A/B test tiêu đề',
      order: first.steps.length + 1,
      outputMode: 'single',
      inputSources: [`step-${first.steps.length}`],
    });
    expect(next.steps.at(-1)!.systemPrompt).toContain(`[[step-${first.steps.length}]]`);
    expect(next.steps.at(-1)!.systemPrompt).toContain('A/B test tiêu đề');
    expect(next.name).toBe(first.name);
  });

  it('describes the proposal in a sentence or two, not with the conversation', async () => {
    const { conversation, next } = await asked('Thêm bước A/B test tiêu đề');
    expect(next.description).toBe(
      '[Offline model] Workflow 4 bước cho: Viết bài blog về trà xanh cho người mới uống trà. ' +
        'Đã thêm bước "A/B test tiêu đề".',
    );
    expect(next.description.length).toBeLessThan(200);
    expect(next.description).not.toContain(conversationHistoryOf(conversation));
    expect(next.description).not.toMatch(/User:|AI \(|Conversation|Giọng văn/);
  });

  it('adds a step asked for before the first proposal, and keeps it in the next ones', async () => {
    const first = await propose([
      ...opening.slice(0, 2),
      { speaker: 'user', text: 'Thêm một bước tối ưu SEO cho bài viết.' },
    ]);
    expect(first.steps.map((step) => step.name)).toEqual([
      'Phân tích yêu cầu',
      'Đề xuất phương án',
      'Kế hoạch thực hiện',
      'Tối ưu SEO cho bài viết',
    ]);
    // The request made a step; it is not a wish the analysis is told about.
    expect(first.steps[0]!.systemPrompt).not.toContain('SEO');
    const next = await propose([
      ...opening.slice(0, 2),
      { speaker: 'user', text: 'Thêm một bước tối ưu SEO cho bài viết.' },
      { speaker: 'proposal', proposal: first },
      { speaker: 'user', text: 'Add a step to proofread the draft after step 1' },
    ]);
    // Line breaks and all: the steps it proposed are given back as they were, though the conversation
    // carried each prompt on one line.
    expect(next.steps[0]).toEqual(first.steps[0]);
    expect(outline(next)).toEqual([
      [1, 'Phân tích yêu cầu', 'single', []],
      [2, 'Proofread the draft', 'single', ['step-1']],
      [3, 'Đề xuất phương án', 'multiple', ['step-1']],
      [4, 'Kế hoạch thực hiện', 'single', ['step-1', 'step-3']],
      [5, 'Tối ưu SEO cho bài viết', 'single', ['step-4']],
    ]);
    expect(next.steps[3]!.systemPrompt).toContain('[[step-1]]');
    expect(next.steps[3]!.systemPrompt).toContain('[[step-3]]');
    expect(next.steps[3]!.systemPrompt).not.toContain('[[step-2]]');
  });

  it('removes a step by number or by name; the steps after it take the result of the one before', async () => {
    for (const change of ['Bỏ bước 2', 'xoá bước Đề xuất phương án', 'remove step 2']) {
      const { next } = await asked(change);
      expect(outline(next)).toEqual([
        [1, 'Phân tích yêu cầu', 'single', []],
        [2, 'Kế hoạch thực hiện', 'single', ['step-1']],
      ]);
      expect(next.steps[1]!.systemPrompt).not.toContain('[[step-2]]');
      expect(next.description).toContain('Đã bỏ bước "Đề xuất phương án".');
    }
  });

  it('keeps the proposal and says what it could not do offline', async () => {
    const { first, next } = await asked('Nhấn mạnh lợi ích sức khoẻ và cách pha trà đúng cách.');
    expect(next.steps).toEqual(first.steps);
    expect(next.description).toBe(
      '[Offline model] Workflow 3 bước cho: Viết bài blog về trà xanh cho người mới uống trà. ' +
        'Model offline chưa làm được "Nhấn mạnh lợi ích sức khoẻ và cách pha trà đúng cách" ' +
        '(nó chỉ thêm hoặc bỏ bước, ví dụ "thêm bước …", "bỏ bước 2").',
    );
    const missing = await asked('Bỏ bước 9');
    expect(missing.next.steps).toEqual(first.steps);
    expect(missing.next.description).toContain('Không làm được "Bỏ bước 9" với các bước hiện có.');
  });

  it('gives the same proposal for the same conversation', async () => {
    const { conversation, next } = await asked('Thêm bước A/B test tiêu đề');
    expect(await propose(conversation)).toEqual(next);
  });
});

describe('the changes the offline model reads in a message', () => {
  it('reads adding a step, in Vietnamese and English, with where it goes', () => {
    expect(askedChange('Thêm bước A/B test tiêu đề')).toMatchObject({
      kind: 'add',
      name: 'A/B test tiêu đề',
      place: { at: 'end' },
    });
    expect(askedChange('Hãy thêm một bước mới: "viết tiêu đề" vào đầu.')).toMatchObject({
      kind: 'add',
      name: 'Viết tiêu đề',
      place: { at: 'start' },
    });
    expect(askedChange('thêm bước kiểm tra chính tả sau bước 2')).toMatchObject({
      kind: 'add',
      name: 'Kiểm tra chính tả',
      place: { after: 2 },
    });
    expect(askedChange('Please add a step to A/B test the titles before step 3')).toMatchObject({
      kind: 'add',
      name: 'A/B test the titles',
      place: { before: 3 },
    });
    expect(askedChange('Add a final step: publish')).toMatchObject({ kind: 'add', name: 'Publish' });
  });

  it('reads removing a step by number, position or name', () => {
    expect(askedChange('Bỏ bước 2')).toMatchObject({ kind: 'remove', step: { order: 2 } });
    expect(askedChange('xóa bước cuối')).toMatchObject({ kind: 'remove', step: { last: true } });
    expect(askedChange('Remove the SEO step.')).toMatchObject({ kind: 'remove', step: { name: 'SEO' } });
    expect(askedChange('delete step 3')).toMatchObject({ kind: 'remove', step: { order: 3 } });
  });

  it('takes an agreement as no change, and anything else as a wish it cannot carry out', () => {
    expect(askedChange('OK').kind).toBe('agree');
    expect(askedChange('Được rồi.').kind).toBe('agree');
    expect(askedChange('OK, tạo đi').kind).toBe('agree');
    expect(askedChange('OK, thêm bước kiểm tra chính tả')).toMatchObject({
      kind: 'add',
      name: 'Kiểm tra chính tả',
    });
    expect(askedChange('Giọng văn vui hơn')).toEqual({ request: 'Giọng văn vui hơn', kind: 'other' });
  });

  it('splits a message into its requests', () => {
    expect(
      requestsIn('Thêm bước A/B test tiêu đề và bỏ bước 2. Giọng vui hơn\n- add a step: publish'),
    ).toEqual(['Thêm bước A/B test tiêu đề', 'bỏ bước 2.', 'Giọng vui hơn', 'add a step: publish']);
  });
});

describe('a workflow generated offline from a plain description', () => {
  it('has a short description: the first sentence, not the whole text', async () => {
    const description = `Plan a tea tasting evening for twenty guests. ${'Every detail matters to us. '.repeat(20)}`;
    const workflow = await generateWorkflow(offline, description);
    expect(workflow.description).toBe(
      '[Offline model] A 3-step workflow for: Plan a tea tasting evening for twenty guests.',
    );
  });
});
