import type { OutputMode } from '../domain/flow';

/** What a step's output mode asks of the model: an instruction and, for structured modes, a JSON schema. */
export interface StructuredOutput {
  instruction: string;
  json?: { schema: object };
}

const BASE =
  'You are one step of a multi-step workflow. Answer the task of this step clearly, in the language of the task.';

export function structuredOutputFor(mode: OutputMode, choices: string[]): StructuredOutput {
  switch (mode) {
    case 'single':
    case 'loop':
      return { instruction: BASE };
    case 'multiple':
      return {
        instruction: `${BASE} Give several distinct alternatives, each with a short branch name.`,
        json: {
          schema: {
            type: 'array',
            items: {
              type: 'object',
              properties: { branchName: { type: 'string' }, content: { type: 'string' } },
              required: ['branchName', 'content'],
            },
          },
        },
      };
    case 'multiple_choice':
      return {
        instruction: `${BASE} Choose exactly one of these options: ${choices.join(' | ')}. Explain the choice briefly.`,
        json: {
          schema: {
            type: 'object',
            properties: { choice: { type: 'string', enum: choices }, reason: { type: 'string' } },
            required: ['choice'],
          },
        },
      };
    default: {
      const unknown: never = mode;
      throw new Error(`Unknown output mode ${String(unknown)}`);
    }
  }
}
