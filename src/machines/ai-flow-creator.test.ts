import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { WorkflowProposal } from '../domain/ai-flow-creator';
import {
  type AiFlowCreatorEmitted,
  aiFlowCreatorMachine,
  type CreatorTexts,
  canSend,
  isPending,
  phaseOf,
  type SavedFlow,
} from './ai-flow-creator';
import { type Pending, settle, waitIn } from './testing';

const texts: CreatorTexts = {
  welcome: 'Mô tả workflow bạn muốn tạo.',
  improvement: (improvement) => `Mô tả đã cải thiện: ${improvement}`,
  proposal: (proposal) => `Đề xuất: ${proposal.name} (${proposal.steps.length} bước)`,
  askWhatToChange: 'Bạn muốn thay đổi điều gì?',
  saved: (name) => `Đã lưu ${name}`,
};

const proposalNamed = (name: string): WorkflowProposal => ({
  name,
  description: `${name} description`,
  steps: [
    {
      name: 'Research',
      order: 1,
      systemPrompt: 'Research the topic.',
      outputMode: 'single',
      requiresUserInput: true,
      inputSources: [],
    },
    {
      name: 'Draft',
      order: 2,
      systemPrompt: 'Draft from [[step-1]].',
      outputMode: 'multiple',
      requiresUserInput: false,
      inputSources: ['step-1'],
    },
  ],
});

/** A creator whose requests wait until the test answers them, with everything it emits recorded. */
function creator() {
  const calls = {
    improve: [] as Pending<string, { description: string }>[],
    propose: [] as Pending<WorkflowProposal, { conversationHistory: string }>[],
    save: [] as Pending<SavedFlow, { proposal: WorkflowProposal }>[],
  };
  const machine = aiFlowCreatorMachine.provide({
    actors: {
      improve: fromPromise(waitIn(calls.improve)),
      propose: fromPromise(waitIn(calls.propose)),
      save: fromPromise(waitIn(calls.save)),
    },
  });
  let minute = 0;
  const now = () => `2026-11-22T10:${String(minute++).padStart(2, '0')}:00.000Z`;
  const actor = createActor(machine, { input: { texts, now } });
  const emitted: AiFlowCreatorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const snapshot = () => actor.getSnapshot();
  const lastOf = <T, I>(list: Pending<T, I>[]) => {
    const call = list.at(-1);
    if (!call) throw new Error('no request was made');
    return call;
  };
  return {
    actor,
    calls,
    emitted,
    phase: () => phaseOf(snapshot()),
    pending: () => isPending(snapshot()),
    canSend: () => canSend(snapshot()),
    context: () => snapshot().context,
    messages: () => snapshot().context.messages.map((m) => [m.type, m.content]),
    send: (text: string) => actor.send({ type: 'SEND', text }),
    /** The conversation the latest proposal call was given. */
    history: () => calls.propose.at(-1)?.input.conversationHistory ?? '',
    answer: async <T, I>(list: Pending<T, I>[], value: T) => {
      lastOf(list).resolve(value);
      await settle();
    },
    fail: async <T, I>(list: Pending<T, I>[], error: unknown) => {
      lastOf(list).reject(error);
      await settle();
    },
  };
}

/** A creator in the improvement phase after one message. */
async function improved() {
  const c = creator();
  c.send('Viết bài blog về trà xanh');
  await c.answer(c.calls.improve, 'Một quy trình 3 bước viết bài blog về trà xanh.');
  return c;
}

/** A creator in the proposal phase after two messages. */
async function proposed(name = 'Blog trà xanh') {
  const c = await improved();
  c.send('Thêm bước SEO');
  await c.answer(c.calls.propose, proposalNamed(name));
  return c;
}

describe('AI flow creator: initial', () => {
  it('starts in initial with the welcome message and an empty preview', () => {
    const c = creator();
    expect(c.phase()).toBe('initial');
    expect(c.messages()).toEqual([['system', texts.welcome]]);
    expect(c.context().messages[0]).toMatchObject({
      id: 'creator-message-1',
      timestamp: '2026-11-22T10:00:00.000Z',
    });
    expect(c.context().proposal).toBeNull();
    expect(c.canSend()).toBe(true);
    expect(c.pending()).toBe(false);
  });

  it('does not send a blank message', () => {
    const c = creator();
    c.send('');
    c.send('   \n\t ');
    expect(c.calls.improve).toHaveLength(0);
    expect(c.messages()).toHaveLength(1);
    expect(c.phase()).toBe('initial');
  });

  it('sends the first message for an improved description and blocks sending meanwhile', async () => {
    const c = creator();
    c.send('  Viết bài blog về trà xanh  ');
    expect(c.messages()).toEqual([
      ['system', texts.welcome],
      ['user', 'Viết bài blog về trà xanh'],
    ]);
    expect(c.calls.improve.map((call) => call.input)).toEqual([{ description: 'Viết bài blog về trà xanh' }]);
    expect(c.pending()).toBe(true);
    expect(c.canSend()).toBe(false);

    c.send('Một tin nhắn nữa');
    c.actor.send({ type: 'CONTINUE_EDITING' });
    expect(c.calls.improve).toHaveLength(1);
    expect(c.calls.propose).toHaveLength(0);
    expect(c.messages()).toHaveLength(2);

    await c.answer(c.calls.improve, 'Một quy trình 3 bước.');
    expect(c.phase()).toBe('improvement');
    expect(c.pending()).toBe(false);
    expect(c.context().improvement).toBe('Một quy trình 3 bước.');
    expect(c.messages().at(-1)).toEqual(['ai', 'Mô tả đã cải thiện: Một quy trình 3 bước.']);
    expect(c.context().messages.at(-1)?.timestamp).toBe('2026-11-22T10:02:00.000Z');
  });

  it('stays in initial when the improvement fails, and improves the next message', async () => {
    const c = creator();
    c.send('Viết bài blog');
    const error = new Error('502: model down');
    await c.fail(c.calls.improve, error);
    expect(c.emitted).toEqual([{ type: 'improveFailed', error }]);
    expect(c.phase()).toBe('initial');
    expect(c.pending()).toBe(false);
    expect(c.messages()).toEqual([
      ['system', texts.welcome],
      ['user', 'Viết bài blog'],
    ]);

    c.send('Viết bài blog về trà');
    expect(c.calls.improve.at(-1)?.input).toEqual({ description: 'Viết bài blog về trà' });
    await c.answer(c.calls.improve, 'Bài blog về trà.');
    expect(c.phase()).toBe('improvement');
  });

  it('ignores confirm, continue-editing and create-new', () => {
    const c = creator();
    c.actor.send({ type: 'CONFIRM' });
    c.actor.send({ type: 'CONTINUE_EDITING' });
    c.actor.send({ type: 'CREATE_NEW' });
    expect(c.phase()).toBe('initial');
    expect(c.calls.save).toHaveLength(0);
    expect(c.messages()).toHaveLength(1);
  });
});

describe('AI flow creator: improvement', () => {
  it('proposes a workflow from the whole conversation after the next message', async () => {
    const c = await improved();
    c.send('   ');
    expect(c.calls.propose).toHaveLength(0);

    c.send('Thêm bước SEO');
    expect(c.pending()).toBe(true);
    expect(c.canSend()).toBe(false);
    expect(c.calls.propose.map((call) => call.input)).toEqual([
      {
        conversationHistory: [
          'User: Viết bài blog về trà xanh',
          'AI (improved description): Một quy trình 3 bước viết bài blog về trà xanh.',
          'User: Thêm bước SEO',
        ].join('\n\n'),
      },
    ]);
    c.send('Và một bước nữa');
    expect(c.calls.propose).toHaveLength(1);

    const proposal = proposalNamed('Blog trà xanh');
    await c.answer(c.calls.propose, proposal);
    expect(c.phase()).toBe('proposal');
    expect(c.context().proposal).toEqual(proposal);
    expect(c.messages().at(-1)).toEqual(['ai', 'Đề xuất: Blog trà xanh (2 bước)']);
  });

  it('stays in improvement when the proposal fails', async () => {
    const c = await improved();
    c.send('Thêm bước SEO');
    await c.fail(c.calls.propose, new Error('boom'));
    expect(c.phase()).toBe('improvement');
    expect(c.pending()).toBe(false);
    expect(c.emitted.map((e) => e.type)).toEqual(['proposalFailed']);
    expect(c.context().proposal).toBeNull();
  });

  it('goes to editing on continue-editing and asks what to change', async () => {
    const c = await improved();
    c.actor.send({ type: 'CONTINUE_EDITING' });
    expect(c.phase()).toBe('editing');
    expect(c.messages().at(-1)).toEqual(['ai', texts.askWhatToChange]);
  });

  it('ignores confirm and create-new', async () => {
    const c = await improved();
    c.actor.send({ type: 'CONFIRM' });
    c.actor.send({ type: 'CREATE_NEW' });
    expect(c.phase()).toBe('improvement');
    expect(c.calls.save).toHaveLength(0);
  });
});

describe('AI flow creator: proposal', () => {
  it('proposes again after any later message, from the conversation with the last proposal', async () => {
    const c = await proposed('Blog trà xanh');
    c.send('Đổi tên thành Blog trà');
    const history = c.history();
    expect(history).toContain('User: Thêm bước SEO');
    expect(history).toContain('AI (proposed workflow):\nBlog trà xanh: Blog trà xanh description');
    expect(history).toContain('2. Draft (multiple): Draft from [[step-1]].');
    expect(history.endsWith('User: Đổi tên thành Blog trà')).toBe(true);
    expect(c.pending()).toBe(true);
    // While the new proposal is on its way nothing else goes: no message, no save, no editing.
    c.send('Thêm nữa');
    c.actor.send({ type: 'CONFIRM' });
    c.actor.send({ type: 'CONTINUE_EDITING' });
    expect(c.calls.propose).toHaveLength(2);
    expect(c.calls.save).toHaveLength(0);
    expect(c.phase()).toBe('proposal');

    await c.answer(c.calls.propose, proposalNamed('Blog trà'));
    expect(c.phase()).toBe('proposal');
    expect(c.context().proposal?.name).toBe('Blog trà');
  });

  it('keeps the last proposal when a new one fails', async () => {
    const c = await proposed('Blog trà xanh');
    c.send('Đổi tên');
    await c.fail(c.calls.propose, new Error('boom'));
    expect(c.phase()).toBe('proposal');
    expect(c.context().proposal?.name).toBe('Blog trà xanh');
    expect(c.emitted.map((e) => e.type)).toEqual(['proposalFailed']);
  });

  it('goes to editing on continue-editing, and the next message proposes again', async () => {
    const c = await proposed('Blog trà xanh');
    c.actor.send({ type: 'CONTINUE_EDITING' });
    expect(c.phase()).toBe('editing');
    expect(c.messages().at(-1)).toEqual(['ai', texts.askWhatToChange]);
    // The preview keeps showing what is being changed.
    expect(c.context().proposal?.name).toBe('Blog trà xanh');

    c.actor.send({ type: 'CONFIRM' });
    c.send(' ');
    expect(c.calls.save).toHaveLength(0);
    expect(c.calls.propose).toHaveLength(1);

    c.send('Bỏ bước SEO');
    expect(c.pending()).toBe(true);
    const history = c.history();
    expect(history).toContain('AI (proposed workflow):\nBlog trà xanh');
    expect(history.endsWith('User: Bỏ bước SEO')).toBe(true);
    c.send('Thêm nữa');
    expect(c.calls.propose).toHaveLength(2);

    await c.answer(c.calls.propose, proposalNamed('Blog không SEO'));
    expect(c.phase()).toBe('proposal');
    expect(c.context().proposal?.name).toBe('Blog không SEO');
  });

  it('stays in editing when the proposal fails there', async () => {
    const c = await proposed();
    c.actor.send({ type: 'CONTINUE_EDITING' });
    c.send('Bỏ bước SEO');
    await c.fail(c.calls.propose, new Error('boom'));
    expect(c.phase()).toBe('editing');
    expect(c.pending()).toBe(false);
    expect(c.emitted.map((e) => e.type)).toEqual(['proposalFailed']);
  });

  it('confirms and saves the proposal, then is confirmed with the input disabled', async () => {
    const c = await proposed('Blog trà xanh');
    c.actor.send({ type: 'CONFIRM' });
    expect(c.pending()).toBe(true);
    expect(c.canSend()).toBe(false);
    expect(c.calls.save.map((call) => call.input)).toEqual([{ proposal: proposalNamed('Blog trà xanh') }]);

    c.send('Một tin nhắn');
    c.actor.send({ type: 'CONTINUE_EDITING' });
    c.actor.send({ type: 'CONFIRM' });
    expect(c.calls.save).toHaveLength(1);
    expect(c.calls.propose).toHaveLength(1);

    const flow = { id: 'flow-1', name: 'Blog trà xanh' };
    await c.answer(c.calls.save, flow);
    expect(c.phase()).toBe('confirmed');
    expect(c.context().savedFlow).toEqual(flow);
    expect(c.emitted).toEqual([{ type: 'saved', flow }]);
    expect(c.messages().at(-1)).toEqual(['system', 'Đã lưu Blog trà xanh']);
    expect(c.canSend()).toBe(false);
  });

  it('stays in proposal when saving fails', async () => {
    const c = await proposed();
    c.actor.send({ type: 'CONFIRM' });
    const error = new Error('500: Internal server error');
    await c.fail(c.calls.save, error);
    expect(c.phase()).toBe('proposal');
    expect(c.pending()).toBe(false);
    expect(c.emitted).toEqual([{ type: 'saveFailed', error }]);
    expect(c.context().savedFlow).toBeNull();
  });

  it('ignores create-new', async () => {
    const c = await proposed();
    c.actor.send({ type: 'CREATE_NEW' });
    expect(c.phase()).toBe('proposal');
  });
});

describe('AI flow creator: confirmed', () => {
  async function confirmed() {
    const c = await proposed('Blog trà xanh');
    c.actor.send({ type: 'CONFIRM' });
    await c.answer(c.calls.save, { id: 'flow-1', name: 'Blog trà xanh' });
    return c;
  }

  it('sends nothing and does not go back to editing', async () => {
    const c = await confirmed();
    const before = c.messages();
    c.send('Thêm một bước');
    c.actor.send({ type: 'CONTINUE_EDITING' });
    c.actor.send({ type: 'CONFIRM' });
    expect(c.phase()).toBe('confirmed');
    expect(c.messages()).toEqual(before);
    expect(c.calls.propose).toHaveLength(1);
    expect(c.calls.save).toHaveLength(1);
  });

  it('starts over on create-new: chat, proposal and phase back to initial', async () => {
    const c = await confirmed();
    const usedIds = c.context().messages.map((m) => m.id);
    c.actor.send({ type: 'CREATE_NEW' });
    expect(c.phase()).toBe('initial');
    expect(c.messages()).toEqual([['system', texts.welcome]]);
    expect(usedIds).not.toContain(c.context().messages[0]?.id);
    expect(c.context()).toMatchObject({
      proposal: null,
      improvement: null,
      savedFlow: null,
      conversation: [],
    });
    expect(c.canSend()).toBe(true);

    // A new conversation: its first message is improved again, with nothing of the old one.
    c.send('Lập kế hoạch du lịch');
    expect(c.calls.improve.at(-1)?.input).toEqual({ description: 'Lập kế hoạch du lịch' });
    await c.answer(c.calls.improve, 'Kế hoạch du lịch 3 bước.');
    c.send('OK');
    expect(c.calls.propose.at(-1)?.input).toEqual({
      conversationHistory:
        'User: Lập kế hoạch du lịch\n\nAI (improved description): Kế hoạch du lịch 3 bước.\n\nUser: OK',
    });
  });
});
