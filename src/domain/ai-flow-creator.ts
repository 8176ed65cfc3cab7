import { z } from 'zod';
import type { GeneratedWorkflow } from './workflow-json';

/** Spec §3 'Creator chat message'. */
export interface CreatorChatMessage {
  id: string;
  type: 'system' | 'user' | 'ai';
  content: string;
  /** ISO time the message was posted. */
  timestamp: string;
}

/**
 * The Workflow JSON the creator proposes and saves through POST /api/ai/create-from-json: a generated
 * workflow, whose steps are single or multiple only (spec §3).
 */
export type WorkflowProposal = GeneratedWorkflow;

/** What one message of the creator's chat may hold; the input line stops there too. */
export const CREATOR_MESSAGE_MAX_LENGTH = 5_000;
/** The whole conversation a proposal is built from. */
export const CONVERSATION_HISTORY_MAX_LENGTH = 50_000;

const nonBlank = (field: string, max: number) =>
  z
    .string()
    .max(max, `${field} must be at most ${max} characters`)
    .refine((text) => text.trim() !== '', `${field} is required`);

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

function describeProposal(proposal: WorkflowProposal): string {
  const steps = proposal.steps.map(
    (step) => `${step.order}. ${step.name} (${step.outputMode}): ${step.systemPrompt.replace(/\s+/g, ' ')}`,
  );
  return [`${proposal.name}: ${proposal.description}`, ...steps].join('\n');
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
          return `User: ${entry.text.trim()}`;
        case 'improvement':
          return `AI (improved description): ${entry.text.trim()}`;
        case 'proposal':
          return `AI (proposed workflow):\n${describeProposal(entry.proposal)}`;
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

const USER = 'User: ';

/**
 * What the workflow generator is given for a proposal: what the user asked for first (so the workflow
 * is named after it), then their later wishes, then the whole conversation, the AI's answers included,
 * in order. The user's own words lead, since they weigh most. A history that is not a creator
 * conversation is given as it is.
 */
export function workflowDescriptionOf(conversationHistory: string): string {
  const text = conversationHistory.trim();
  // An entry starts with its speaker; a message of several paragraphs stays one entry.
  const entries = text.split(/\n\n(?=User: |AI \()/);
  const [subject, ...wishes] = entries
    .filter((entry) => entry.startsWith(USER))
    .map((entry) => entry.slice(USER.length).trim());
  if (!subject) return text;
  const parts = [subject];
  if (wishes.length > 0) parts.push(wishes.map((wish) => `- ${wish}`).join('\n'));
  if (entries.length > wishes.length + 1) parts.push(`Conversation:\n\n${text}`);
  return parts.join('\n\n');
}
