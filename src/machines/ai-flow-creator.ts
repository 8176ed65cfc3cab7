import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  emit,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate';
import {
  type ConversationEntry,
  type CreatorChatMessage,
  conversationHistoryOf,
  type WorkflowProposal,
} from '../domain/ai-flow-creator';

/** The machine's own words in the chat; the page gives them from its string catalogue. */
export interface CreatorTexts {
  welcome: string;
  /** The assistant's answer to the first message: the improved description and what to do next. */
  improvement: (improvement: string) => string;
  proposal: (proposal: WorkflowProposal) => string;
  askWhatToChange: string;
  saved: (name: string) => string;
}

export interface AiFlowCreatorInput {
  texts: CreatorTexts;
  /** The current time as ISO text (a message's timestamp). */
  now: () => string;
}

/** A saved workflow: the flow POST /api/ai/create-from-json created. */
export interface SavedFlow {
  id: string;
  name: string;
}

export interface AiFlowCreatorContext extends AiFlowCreatorInput {
  messages: CreatorChatMessage[];
  conversation: ConversationEntry[];
  improvement: string | null;
  proposal: WorkflowProposal | null;
  savedFlow: SavedFlow | null;
  /** Numbers the messages: ids stay unique across create-new. */
  messageCount: number;
}

export type AiFlowCreatorEvent =
  | { type: 'SEND'; text: string }
  | { type: 'CONFIRM' }
  | { type: 'CONTINUE_EDITING' }
  | { type: 'CREATE_NEW' };

/** What the page is told once each, for its toasts. */
export type AiFlowCreatorEmitted =
  | { type: 'improveFailed'; error: unknown }
  | { type: 'proposalFailed'; error: unknown }
  | { type: 'saveFailed'; error: unknown }
  | { type: 'saved'; flow: SavedFlow };

export type AiFlowCreatorPhase = 'initial' | 'improvement' | 'proposal' | 'editing' | 'confirmed';

const posted = (context: AiFlowCreatorContext, type: CreatorChatMessage['type'], content: string) => {
  const number = context.messageCount + 1;
  return {
    messageCount: number,
    messages: [
      ...context.messages,
      { id: `creator-message-${number}`, type, content, timestamp: context.now() },
    ],
  };
};

const fresh = (input: AiFlowCreatorInput, messageCount: number): AiFlowCreatorContext => {
  const context: AiFlowCreatorContext = {
    ...input,
    messages: [],
    conversation: [],
    improvement: null,
    proposal: null,
    savedFlow: null,
    messageCount,
  };
  return { ...context, ...posted(context, 'system', input.texts.welcome) };
};

const sentText = (event: AiFlowCreatorEvent) => (event.type === 'SEND' ? event.text.trim() : '');

/** The proposal call: the whole conversation, latest message included. */
const proposalInput = ({ context }: { context: AiFlowCreatorContext }) => ({
  conversationHistory: conversationHistoryOf(context.conversation),
});

/**
 * Proposing, the same in improvement, proposal and editing: the answer opens proposal (its idle), a failure
 * goes back to the phase's own idle with the message left in the chat.
 */
const proposing = {
  tags: 'pending',
  invoke: {
    src: 'propose',
    input: proposalInput,
    onDone: {
      target: '#aiFlowCreator.proposal',
      actions: {
        type: 'storeProposal',
        params: ({ event }: { event: DoneActorEvent<WorkflowProposal> }) => event.output,
      },
    },
    onError: {
      target: 'idle',
      actions: { type: 'proposalFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error },
    },
  },
} as const;

/**
 * The AI flow creator's phases: the first message gets an improved description (improvement),
 * any later one a workflow proposal built from the whole conversation (proposal); continue-editing asks
 * what to change (editing) and the next message proposes again; confirm-and-save ends in confirmed, where
 * only create-new (back to initial, chat and proposal cleared) is possible. A message is sent only when it
 * is not blank and no request is pending. The three requests are actors the page provides.
 */
export const aiFlowCreatorMachine = setup({
  types: {
    input: {} as AiFlowCreatorInput,
    context: {} as AiFlowCreatorContext,
    events: {} as AiFlowCreatorEvent,
    emitted: {} as AiFlowCreatorEmitted,
    /** On every state where a request is on its way. */
    tags: {} as 'pending',
  },
  actors: {
    improve: fromPromise<string, { description: string }>(async () => {
      throw new Error('The creator has no improvement call: provide improve');
    }),
    propose: fromPromise<WorkflowProposal, { conversationHistory: string }>(async () => {
      throw new Error('The creator has no proposal call: provide propose');
    }),
    save: fromPromise<SavedFlow, { proposal: WorkflowProposal }>(async () => {
      throw new Error('The creator has no save call: provide save');
    }),
  },
  actions: {
    postUserMessage: assign(({ context, event }) => ({
      ...posted(context, 'user', sentText(event)),
      conversation: [...context.conversation, { speaker: 'user' as const, text: sentText(event) }],
    })),
    storeProposal: assign(({ context }, proposal: WorkflowProposal) => ({
      ...posted(context, 'ai', context.texts.proposal(proposal)),
      proposal,
      conversation: [...context.conversation, { speaker: 'proposal' as const, proposal }],
    })),
    proposalFailed: emit((_, error: unknown) => ({ type: 'proposalFailed' as const, error })),
    askWhatToChange: assign(({ context }) => posted(context, 'ai', context.texts.askWhatToChange)),
  },
  guards: {
    hasText: ({ event }) => sentText(event) !== '',
  },
}).createMachine({
  id: 'aiFlowCreator',
  context: ({ input }) => fresh(input, 0),
  initial: 'initial',
  states: {
    initial: {
      initial: 'idle',
      states: {
        idle: {
          on: { SEND: { guard: 'hasText', target: 'improving', actions: 'postUserMessage' } },
        },
        improving: {
          tags: 'pending',
          invoke: {
            src: 'improve',
            input: ({ context }) => ({
              description: context.conversation.findLast((entry) => entry.speaker === 'user')?.text ?? '',
            }),
            onDone: {
              target: '#aiFlowCreator.improvement',
              actions: assign(({ context, event }) => ({
                ...posted(context, 'ai', context.texts.improvement(event.output)),
                improvement: event.output,
                conversation: [
                  ...context.conversation,
                  { speaker: 'improvement' as const, text: event.output },
                ],
              })),
            },
            // The message stays in the chat; the next one is again the first to be improved.
            onError: {
              target: 'idle',
              actions: emit(({ event }) => ({ type: 'improveFailed' as const, error: event.error })),
            },
          },
        },
      },
    },
    improvement: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            SEND: { guard: 'hasText', target: 'proposing', actions: 'postUserMessage' },
            CONTINUE_EDITING: { target: '#aiFlowCreator.editing', actions: 'askWhatToChange' },
          },
        },
        proposing,
      },
    },
    proposal: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            SEND: { guard: 'hasText', target: 'proposing', actions: 'postUserMessage' },
            CONTINUE_EDITING: { target: '#aiFlowCreator.editing', actions: 'askWhatToChange' },
            CONFIRM: { target: 'saving' },
          },
        },
        proposing,
        saving: {
          tags: 'pending',
          invoke: {
            src: 'save',
            input: ({ context }) => ({ proposal: context.proposal! }),
            onDone: {
              target: '#aiFlowCreator.confirmed',
              actions: [
                assign(({ context, event }) => ({
                  ...posted(context, 'system', context.texts.saved(event.output.name)),
                  savedFlow: event.output,
                })),
                emit(({ event }) => ({ type: 'saved' as const, flow: event.output })),
              ],
            },
            onError: {
              target: 'idle',
              actions: emit(({ event }) => ({ type: 'saveFailed' as const, error: event.error })),
            },
          },
        },
      },
    },
    editing: {
      initial: 'idle',
      states: {
        idle: {
          on: { SEND: { guard: 'hasText', target: 'proposing', actions: 'postUserMessage' } },
        },
        proposing,
      },
    },
    confirmed: {
      on: {
        CREATE_NEW: {
          target: 'initial',
          actions: assign(({ context }) =>
            fresh({ texts: context.texts, now: context.now }, context.messageCount),
          ),
        },
      },
    },
  },
});

export type AiFlowCreatorSnapshot = SnapshotFrom<typeof aiFlowCreatorMachine>;

const PHASES: AiFlowCreatorPhase[] = ['initial', 'improvement', 'proposal', 'editing', 'confirmed'];

export function phaseOf(snapshot: AiFlowCreatorSnapshot): AiFlowCreatorPhase {
  return PHASES.find((phase) => snapshot.matches(phase)) ?? 'initial';
}

/** A request (improvement, proposal or save) is on its way: sending and the buttons wait. */
export function isPending(snapshot: AiFlowCreatorSnapshot): boolean {
  return snapshot.hasTag('pending');
}

/** What the input line may do now: nothing in confirmed or while a request is pending. */
export function canSend(snapshot: AiFlowCreatorSnapshot): boolean {
  return !isPending(snapshot) && !snapshot.matches('confirmed');
}
