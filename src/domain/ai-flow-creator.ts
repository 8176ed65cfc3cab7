import { z } from 'zod';
import type { OutputMode } from './flow';

/** Spec §3 'Creator chat message'. */
export interface CreatorChatMessage {
  id: string;
  type: 'system' | 'user' | 'ai';
  content: string;
  /** ISO time the message was posted. */
  timestamp: string;
}

/** A step of a proposal: the creator only proposes single and multiple steps (spec §3). */
export interface ProposalStep {
  name: string;
  order: number;
  systemPrompt: string;
  outputMode: Extract<OutputMode, 'single' | 'multiple'>;
  requiresUserInput: boolean;
  inputSources: string[];
}

/** The Workflow JSON the creator proposes and saves through POST /api/ai/create-from-json. */
export interface WorkflowProposal {
  name: string;
  description: string;
  steps: ProposalStep[];
}

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

/** A generated workflow as a proposal: steps in order, numbered from 1, other modes proposed as single. */
export function asProposal(workflow: {
  name: string;
  description: string;
  steps: Array<{
    name: string;
    order?: number;
    systemPrompt: string;
    outputMode?: string;
    requiresUserInput?: boolean;
    inputSources?: string[];
  }>;
}): WorkflowProposal {
  const steps = [...workflow.steps]
    .map((step, index) => ({ step, index }))
    .sort((a, b) => (a.step.order ?? a.index + 1) - (b.step.order ?? b.index + 1) || a.index - b.index);
  return {
    name: workflow.name,
    description: workflow.description,
    steps: steps.map(({ step }, index) => ({
      name: step.name,
      order: index + 1,
      systemPrompt: step.systemPrompt,
      outputMode: step.outputMode === 'multiple' ? 'multiple' : 'single',
      requiresUserInput: step.requiresUserInput ?? false,
      inputSources: step.inputSources ?? [],
    })),
  };
}
