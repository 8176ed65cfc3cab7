import { z } from 'zod';
import { DEFAULT_USER_INPUT } from './execution/types';
import { atMostCharacters } from './filled-text';

/** The notes go into every prompt of the flow, so they are kept to a size a prompt can carry. */
export const USER_NOTES_MAX_LENGTH = 10_000;

export const userNotesSchema = z.strictObject({
  userNotes: z.string().max(USER_NOTES_MAX_LENGTH, atMostCharacters(USER_NOTES_MAX_LENGTH)),
});

/** A flow's conversation context as GET /api/flows/:flowId/context answers. */
export interface ConversationContextView {
  /** null until the user first saves notes. */
  id: string | null;
  flowId: string;
  conversationHistory: string;
  rejectedIdeas: string;
  userNotes: string;
  /** 0 until the user first saves notes; each save adds one. */
  version: number;
  /** The latest of: notes saved, a result rejected, a run answered. */
  lastUpdated: string | null;
  createdAt: string | null;
}

/** A deleted result as the flow remembers it. */
export interface RejectedIdea {
  stepOrder: number | null;
  label: string | null;
  content: string;
}

/** One successful model call of the flow. */
export interface ConversationTurn {
  stepOrder: number;
  stepName: string | null;
  userInput: string | null;
  answer: string;
}

/**
 * What the rejected ideas may add to every prompt of the flow: the newest first, each cut to
 * REJECTED_IDEA_MAX_CHARS, until REJECTED_IDEAS_MAX_CHARS in all; older ones are left out (and said to be),
 * so deleting results can never make a flow's prompts too large to run.
 */
export const REJECTED_IDEAS_MAX_CHARS = 20_000;
export const REJECTED_IDEA_MAX_CHARS = 2_000;

/** The rejected ideas, oldest first, each under the step and label it came from; bounded as said above. */
export function rejectedIdeasText(ideas: readonly RejectedIdea[]): string {
  const sections: string[] = [];
  let used = 0;
  const shown = ideas.filter((idea) => idea.content.trim() !== '');
  let left = shown.length;
  for (let i = shown.length - 1; i >= 0; i--) {
    const idea = shown[i]!;
    const origin = [idea.stepOrder === null ? null : `Step ${idea.stepOrder}`, idea.label]
      .filter((part) => part !== null && part !== '')
      .join(' · ');
    const content = idea.content.trim();
    const cut =
      content.length > REJECTED_IDEA_MAX_CHARS ? `${content.slice(0, REJECTED_IDEA_MAX_CHARS)}…` : content;
    const section = `### ${origin || 'Rejected idea'}\n${cut}`;
    if (used + section.length > REJECTED_IDEAS_MAX_CHARS) break;
    sections.unshift(section);
    used += section.length + 2;
    left -= 1;
  }
  if (left > 0) sections.unshift(`(${left} older rejected ${left === 1 ? 'idea is' : 'ideas are'} left out)`);
  return sections.join('\n\n');
}

/**
 * The conversation so far, in time order: per turn the step, what the user gave it (the default input
 * when blank, as the model was told) and the answer.
 */
export function conversationHistoryText(turns: readonly ConversationTurn[]): string {
  return turns
    .map((turn) => {
      const step = turn.stepName ? `Step ${turn.stepOrder}: ${turn.stepName}` : `Step ${turn.stepOrder}`;
      const input = turn.userInput?.trim() || DEFAULT_USER_INPUT;
      return `### ${step}\nUser: ${input}\nAI: ${turn.answer.trim()}`;
    })
    .join('\n\n');
}

/** Context size in KB = (history length + rejected ideas length) / 1024. */
export function contextSizeKb(
  context: Pick<ConversationContextView, 'conversationHistory' | 'rejectedIdeas'>,
) {
  return (context.conversationHistory.length + context.rejectedIdeas.length) / 1024;
}
