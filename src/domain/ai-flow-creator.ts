import { z } from 'zod';
import { detectLabels } from './execution/prompt';
import { atMostCharacters, FILLED, isFilled, isRequired } from './filled-text';
import { type GeneratedWorkflow, referencedOrder, stepReference } from './workflow-json';

/** A message of the AI flow creator's chat. */
export interface CreatorChatMessage {
  id: string;
  type: 'system' | 'user' | 'ai';
  content: string;
  /** ISO time the message was posted. */
  timestamp: string;
}

/**
 * The Workflow JSON the creator proposes and saves through POST /api/ai/create-from-json: a generated
 * workflow, whose steps are single or multiple only.
 */
export type WorkflowProposal = GeneratedWorkflow;

/** What one message of the creator's chat may hold; the input line stops there too. */
export const CREATOR_MESSAGE_MAX_LENGTH = 5_000;
/** The whole conversation a proposal is built from. */
export const CONVERSATION_HISTORY_MAX_LENGTH = 50_000;

const nonBlank = (field: string, max: number) =>
  z
    .string()
    .max(max, `${field}: ${atMostCharacters(max)}`)
    .refine(isFilled, isRequired(field))
    .meta(FILLED);

export const improveRequestSchema = z.strictObject({
  description: nonBlank('description', CREATOR_MESSAGE_MAX_LENGTH),
});

export const proposalRequestSchema = z.strictObject({
  conversationHistory: nonBlank('conversationHistory', CONVERSATION_HISTORY_MAX_LENGTH),
});

/** What the conversation has settled so far, in the order it was said. */
export type ConversationEntry =
  | { speaker: 'user'; text: string }
  | { speaker: 'improvement'; text: string }
  | { speaker: 'proposal'; proposal: WorkflowProposal };

/** How each entry of the conversation text starts: its speaker. */
const SPEAKER = {
  user: 'User: ',
  improvement: 'AI (improved description): ',
  proposal: 'AI (proposed workflow):\n',
} as const;

/** A proposal on a few lines: `name: description`, then `order. name (mode): prompt` for each step. */
function describeProposal(proposal: WorkflowProposal): string {
  const steps = proposal.steps.map(
    (step) => `${step.order}. ${step.name} (${step.outputMode}): ${step.systemPrompt.replace(/\s+/g, ' ')}`,
  );
  return [`${proposal.name}: ${proposal.description}`, ...steps].join('\n');
}

/** The line describeProposal writes for a step. */
const DESCRIBED_STEP = /^(\d+)\. (.+?) \((single|multiple)\): (.*)$/;

/**
 * A described proposal read back; null when it has no step. Each prompt is on one line, as it was
 * described, and a step's input sources are the earlier steps its prompt names by [[step-N]].
 */
function readDescribedProposal(text: string): WorkflowProposal | null {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => DESCRIBED_STEP.test(line));
  if (first === -1) return null;
  const heading = lines.slice(0, first).join('\n');
  const colon = heading.indexOf(': ');
  const steps = lines.slice(first).flatMap((line) => {
    const match = DESCRIBED_STEP.exec(line);
    if (!match) return [];
    const order = Number(match[1]);
    const systemPrompt = match[4]!.trim();
    const earlier = detectLabels(systemPrompt)
      .map(referencedOrder)
      .filter((n): n is number => n !== null && n < order);
    return [
      {
        name: match[2]!,
        order,
        systemPrompt,
        outputMode: match[3] as 'single' | 'multiple',
        requiresUserInput: false,
        inputSources: [...new Set(earlier)].map(stepReference),
      },
    ];
  });
  return {
    name: colon === -1 ? heading.trim() : heading.slice(0, colon).trim(),
    description: colon === -1 ? '' : heading.slice(colon + 2).trim(),
    steps,
  };
}

/**
 * The conversation as one text for the proposal call: the user's messages, and what the user answered
 * them to, the improved description and the workflow proposed last (a change is asked of it). When it
 * is too long the oldest part goes first: the latest wishes weigh most.
 */
export function conversationHistoryOf(entries: ConversationEntry[]): string {
  const text = entries
    .map((entry) => {
      switch (entry.speaker) {
        case 'user':
          return `${SPEAKER.user}${entry.text.trim()}`;
        case 'improvement':
          return `${SPEAKER.improvement}${entry.text.trim()}`;
        case 'proposal':
          return `${SPEAKER.proposal}${describeProposal(entry.proposal)}`;
        default: {
          const unknown: never = entry;
          throw new Error(`Unknown conversation entry ${String(unknown)}`);
        }
      }
    })
    .join('\n\n');
  return text.length <= CONVERSATION_HISTORY_MAX_LENGTH
    ? text
    : text.slice(text.length - CONVERSATION_HISTORY_MAX_LENGTH);
}

/** The entries of a conversation text: each starts with its speaker; a message of several paragraphs stays one entry. */
const entriesOf = (history: string) => history.trim().split(/\n\n(?=User: |AI \()/);

/**
 * A conversation text read back into its entries, in order; a proposal comes back as it was described
 * (each prompt on one line). What is not an entry, such as the cut-off start of a long conversation, is
 * left out.
 */
export function readConversation(history: string): ConversationEntry[] {
  return entriesOf(history).flatMap((entry): ConversationEntry[] => {
    if (entry.startsWith(SPEAKER.user))
      return [{ speaker: 'user', text: entry.slice(SPEAKER.user.length).trim() }];
    if (entry.startsWith(SPEAKER.improvement)) {
      return [{ speaker: 'improvement', text: entry.slice(SPEAKER.improvement.length).trim() }];
    }
    if (entry.startsWith(SPEAKER.proposal)) {
      const proposal = readDescribedProposal(entry.slice(SPEAKER.proposal.length));
      return proposal ? [{ speaker: 'proposal', proposal }] : [];
    }
    return [];
  });
}

/** Where the description of a proposal quotes the conversation it comes from. */
const CONVERSATION_HEADING = 'Conversation:\n\n';

/**
 * What the workflow generator is given for a proposal: what the user asked for first (so the workflow
 * is named after it), then their later wishes, then the whole conversation, the AI's answers included,
 * in order. The user's own words lead, since they weigh most. A history that is not a creator
 * conversation is given as it is.
 */
export function workflowDescriptionOf(conversationHistory: string): string {
  const text = conversationHistory.trim();
  const entries = entriesOf(text);
  const [subject, ...wishes] = entries
    .filter((entry) => entry.startsWith(SPEAKER.user))
    .map((entry) => entry.slice(SPEAKER.user.length).trim());
  if (!subject) return text;
  const parts = [subject];
  if (wishes.length > 0) parts.push(wishes.map((wish) => `- ${wish}`).join('\n'));
  if (entries.length > wishes.length + 1) parts.push(`${CONVERSATION_HEADING}${text}`);
  return parts.join('\n\n');
}

/** The conversation a proposal's description quotes (see workflowDescriptionOf), or null when it quotes none. */
export function conversationQuotedIn(description: string): string | null {
  const at = description.indexOf(`\n\n${CONVERSATION_HEADING}`);
  return at === -1 ? null : description.slice(at + 2 + CONVERSATION_HEADING.length);
}
