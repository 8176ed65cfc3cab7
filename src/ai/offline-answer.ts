import { DEFAULT_USER_INPUT } from '../domain/execution';

/** Every offline answer says what it is, so nobody mistakes it for a real model's answer. */
export const OFFLINE_MARKER = '[Offline model]';

/** A prompt read as the domain builds it: the task first, then `## Heading` sections (context, user input). */
export interface ReadPrompt {
  task: string;
  sections: Array<{ heading: string; body: string }>;
  /** What the user typed; empty when they typed nothing and the domain filled in its default. */
  input: string;
}

export function readPrompt(prompt: string): ReadPrompt {
  const [task = '', ...rest] = prompt.split(/^## /m);
  const sections = rest.map((section) => {
    const newline = section.indexOf('\n');
    return newline === -1
      ? { heading: section.trim(), body: '' }
      : { heading: section.slice(0, newline).trim(), body: section.slice(newline + 1).trim() };
  });
  const input = sections.find((s) => s.heading.toLowerCase() === 'user input')?.body ?? '';
  return {
    task: task.trim(),
    sections: sections.filter((s) => s.heading.toLowerCase() !== 'user input'),
    input: input === DEFAULT_USER_INPUT ? '' : input,
  };
}

const firstLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^[#>*\-\s]+/, '').trim())
    .find((line) => line !== '') ?? '';

const VIETNAMESE_LETTERS = /[ăâđêôơưàáạảãầấậẩẫằắặẳẵèéẹẻẽềếệểễìíịỉĩòóọỏõồốộổỗờớợởỡùúụủũừứựửữỳýỵỷỹ]/i;

/** Whether a text is written in Vietnamese (it has letters only Vietnamese uses), else taken as English. */
export const isVietnamese = (text: string) => VIETNAMESE_LETTERS.test(text);

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The first sentence of a text, on one line and not too long. */
export function firstSentence(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  return shorten(end === -1 ? flat : flat.slice(0, end + 1), max);
}

// Frequent English words that would otherwise crowd out the words of the task.
const COMMON = new Set(
  'about also been each from have into just keep make more most only over some such than that them then there these they this what when which will with would your'.split(
    ' ',
  ),
);

/** The words that occur most, longest first on a tie; very short and very common words carry little meaning. */
export function keywordsOf(text: string, count: number): string[] {
  const tally = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []) {
    if (!COMMON.has(word)) tally.set(word, (tally.get(word) ?? 0) + 1);
  }
  return [...tally]
    .sort(([a, na], [b, nb]) => nb - na || b.length - a.length || (a < b ? -1 : 1))
    .slice(0, count)
    .map(([word]) => word);
}

/**
 * A short, deterministic answer that restates the task: a heading, then bullets for the task, what it
 * builds on, the user's input and its key words. Useful for trying a flow end to end without a key.
 */
export function offlineTextAnswer(system: string, prompt: string): string {
  const { task, sections: context, input } = readPrompt(prompt);
  const heading = shorten(firstLine(task) || firstLine(system) || 'Answer', 80);

  const bullets: string[] = [];
  if (task !== '') bullets.push(`**Task:** ${firstSentence(task)}`);
  for (const section of context.slice(0, 1)) {
    bullets.push(`**Builds on** ${section.heading}: ${firstSentence(section.body) || '(empty)'}`);
  }
  if (input !== '') bullets.push(`**Input:** ${firstSentence(input)}`);
  const keywords = keywordsOf(`${task}\n${input}`, 5);
  if (keywords.length > 0) bullets.push(`**Key words:** ${keywords.join(', ')}`);
  if (bullets.length < 2) bullets.push('**Note:** add a Gemini API key to get a real answer.');

  return `${OFFLINE_MARKER} ${heading}\n\n${bullets.map((b) => `- ${b}`).join('\n')}\n`;
}
