import { DEFAULT_USER_INPUT } from '../domain/execution';
import { DEFAULT_MASTER_INPUT } from '../domain/master-mode/row-run';

/** Every offline answer says what it is, so nobody mistakes it for a real model's answer. */
export const OFFLINE_MARKER = '[Offline model]';

export interface PromptSection {
  heading: string;
  body: string;
}

/** A prompt read as the domain builds it: the task first, then `## Heading` sections (context, user input). */
export interface ReadPrompt {
  /** The step's instruction, its [[placeholders]] already replaced by the results they name. */
  task: string;
  sections: PromptSection[];
  /** What the user typed; empty when they typed nothing and the domain filled in its default. */
  input: string;
}

// What the domain writes when the user typed nothing: no input to answer about.
const NO_INPUT = new Set([DEFAULT_USER_INPUT, DEFAULT_MASTER_INPUT]);

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
    input: NO_INPUT.has(input) ? '' : input,
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

export const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase('vi') + text.slice(1);

/** A sentence without its closing punctuation, to be quoted or continued. */
export const withoutFullStop = (text: string) => text.replace(/[\s.!?…:;,]+$/u, '');

// Frequent English and Vietnamese words that would otherwise crowd out the words of the task.
const COMMON = new Set(
  [
    'about also been each from have into just keep make more most only over some such than that them then',
    'there these they this what when which will with would your',
    'the and for are but not you all any can was our its one',
    'trong những được người không theo cũng nhiều hoặc nhưng việc đang phải rằng chúng mình hãy',
    'các một này cho với của và là có',
  ]
    .join(' ')
    .split(' '),
);

/** The words of a text that carry meaning: lower case, not very short, not very common. */
export const meaningfulWords = (text: string, minLength = 3): string[] =>
  (text.toLowerCase().match(new RegExp(`[\\p{L}\\p{N}]{${minLength},}`, 'gu')) ?? []).filter(
    (word) => !COMMON.has(word),
  );

/** The words that occur most, longest first on a tie; very short and very common words carry little meaning. */
export function keywordsOf(text: string, count: number): string[] {
  const tally = new Map<string, number>();
  for (const word of meaningfulWords(text, 4)) tally.set(word, (tally.get(word) ?? 0) + 1);
  return [...tally]
    .sort(([a, na], [b, nb]) => nb - na || b.length - a.length || (a < b ? -1 : 1))
    .slice(0, count)
    .map(([word]) => word);
}

/** What a step's prompt gives to answer from, sorted by the part it plays. */
export interface StepMaterial {
  /** The step's instruction with the results it quotes, as the prompt gives it. */
  task: string;
  /** What the step asks, in its first sentence, without the earlier results it quotes. */
  instruction: string;
  /** What the answer is about: the user's input when they gave one, else the instruction. */
  topic: string;
  input: string;
  /** The earlier results the step builds on: its input sources and the loop's earlier iterations. */
  sources: PromptSection[];
  /** A sentence or bullet of each earlier result, each once: the points an answer can take up. */
  points: string[];
  notes: string;
  rejected: string;
  /** The loop iteration being answered: 1 when there are no earlier iterations. */
  iteration: number;
  keywords: string[];
  vietnamese: boolean;
}

const MATERIAL_POINT_MIN = 12;

/** The sentences and bullets of a result, as plain text: no markdown, no offline marker, no label. */
function pointsOf(text: string): string[] {
  return text
    .replaceAll('**', '')
    .replaceAll(OFFLINE_MARKER, '')
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((part) =>
      part
        .replace(/^[#>*\-\s\d.)]+/, '')
        .replace(/^[^:]{1,30}:\s+/, '')
        .trim(),
    )
    .filter((part) => part.length >= MATERIAL_POINT_MIN);
}

// A role ('You are an experienced consultant.') sets the voice; it is not what the step asks.
const ROLE = /^(you are|act as|bạn là|hãy đóng vai|đóng vai)\s/iu;
const INTRODUCES_MATERIAL = /:\s*$/;

/** The first sentence of the step's own words that asks for something. */
function instructionIn(own: string): string {
  const lines = own.split('\n').filter((line) => line.trim() !== '');
  // A line that only introduced a quoted result ('Based on this analysis:') asks nothing by itself.
  const asking = lines.filter((line) => !INTRODUCES_MATERIAL.test(line));
  const sentences = (asking.length > 0 ? asking : lines).flatMap((line) =>
    line.trim().split(/(?<=[.!?])\s+/),
  );
  return firstSentence(sentences.find((sentence) => !ROLE.test(sentence)) ?? sentences[0] ?? '', 160);
}

/**
 * The prompt sorted into what an answer is built from: the instruction (the quoted results cut out, so
 * it says what to do), the topic, the earlier results and their points, the user's notes, the rejected
 * ideas and the loop iteration.
 */
export function materialOf(system: string, prompt: string): StepMaterial {
  const { task, sections, input } = readPrompt(prompt);
  const kind = (section: PromptSection) => section.heading.toLowerCase();
  const notes = sections.find((s) => kind(s) === 'user notes')?.body ?? '';
  const rejected = sections.find((s) => kind(s).startsWith('rejected ideas'))?.body ?? '';
  const sources = sections.filter((s) => kind(s) !== 'user notes' && !kind(s).startsWith('rejected ideas'));
  const previous = sources.find((s) => kind(s) === 'previous iterations');

  // A result named by a placeholder is quoted in the task as well as in its section: cut out of the
  // task, the step's own words are left.
  let own = task;
  for (const source of sources) {
    if (source.body !== '') own = own.split(source.body).join('\n');
  }
  const instruction = instructionIn(own) || firstSentence(firstLine(system), 160);

  const points = [...new Set(sources.flatMap((s) => pointsOf(s.body)))].filter(
    (point) => !instruction.includes(point),
  );
  return {
    task,
    instruction,
    topic: withoutFullStop(firstSentence(input, 100)) || withoutFullStop(instruction) || 'the task',
    input,
    sources,
    points,
    notes,
    rejected,
    iteration: (previous?.body.match(/^### Loop \d+/gm)?.length ?? 0) + 1,
    // The input is written twice: what the user asked about weighs more than the task's own words.
    keywords: keywordsOf(`${input}\n${input}\n${own.replaceAll(OFFLINE_MARKER, '')}\n${notes}`, 5),
    vietnamese: isVietnamese(`${task}\n${input}`) || (task === '' && isVietnamese(system)),
  };
}

interface TextWording {
  task: string;
  input: string;
  buildsOn: string;
  loop: string;
  iteration: (n: number, previous: string) => string;
  notes: string;
  keywords: string;
  draft: (topic: string, points: string[]) => string;
}

const TEXT_WORDING: Record<'vi' | 'en', TextWording> = {
  vi: {
    task: 'Nhiệm vụ',
    input: 'Đầu vào',
    buildsOn: 'Dựa trên',
    loop: 'Vòng lặp',
    iteration: (n, previous) => `lần ${n}, sửa tiếp từ lần trước: ${previous}`,
    notes: 'Ghi chú của người dùng',
    keywords: 'Từ khoá',
    draft: (topic, points) =>
      points.length > 0
        ? `Về "${topic}": ${points.map(withoutFullStop).join('; ')}.`
        : `Về "${topic}": các ý chính cần trình bày được liệt kê dưới đây.`,
  },
  en: {
    task: 'Task',
    input: 'Input',
    buildsOn: 'Builds on',
    loop: 'Loop',
    iteration: (n, previous) => `round ${n}, revising the previous one: ${previous}`,
    notes: 'User notes',
    keywords: 'Key words',
    draft: (topic, points) =>
      points.length > 0
        ? `On "${topic}": ${points.map(withoutFullStop).join('; ')}.`
        : `On "${topic}": the main points to cover are listed below.`,
  },
};

/**
 * What the offline model says of itself is the product speaking, so it is in Vietnamese like the rest of the
 * UI; the answer itself follows the prompt's language, as a real model's would.
 */
const NO_KEY_NOTE = '**Ghi chú:** Thêm Gemini API key để có câu trả lời thật.';

const DRAFT_POINTS = 3;

/** A result in its first sentence, as plain text. */
const gist = (text: string) => firstSentence(pointsOf(text)[0] ?? text);

/**
 * A short, deterministic answer built from the prompt: a heading (the task's first line), a draft on the
 * topic that takes up the earlier results, then bullets for the task, the user's input, each result it
 * builds on, the loop round, the user's notes and the key words. Useful for trying a flow end to end
 * without a key.
 */
export function offlineTextAnswer(system: string, prompt: string): string {
  const material = materialOf(system, prompt);
  const { task } = material;
  const wording = TEXT_WORDING[material.vietnamese ? 'vi' : 'en'];
  // A first line that only introduces a quoted result says nothing about the answer.
  const opening = firstLine(task);
  const heading = shorten(
    (INTRODUCES_MATERIAL.test(opening) ? material.instruction : opening) || firstLine(system) || 'Answer',
    80,
  );

  const bullets: string[] = [];
  if (task !== '') bullets.push(`**${wording.task}:** ${material.instruction}`);
  if (material.input !== '') bullets.push(`**${wording.input}:** ${firstSentence(material.input)}`);
  for (const source of material.sources) {
    if (source.heading.toLowerCase() === 'previous iterations') {
      const last = source.body.split(/^### Loop \d+\s*$/m).at(-1) ?? '';
      bullets.push(`**${wording.loop}:** ${wording.iteration(material.iteration, gist(last))}`);
    } else {
      bullets.push(`**${wording.buildsOn}** ${source.heading}: ${gist(source.body) || '(empty)'}`);
    }
  }
  if (material.notes !== '') bullets.push(`**${wording.notes}:** ${firstSentence(material.notes)}`);
  if (material.keywords.length > 0) bullets.push(`**${wording.keywords}:** ${material.keywords.join(', ')}`);
  if (bullets.length < 2) bullets.push(NO_KEY_NOTE);

  const draft = wording.draft(
    shorten(material.topic, 100),
    material.points.slice(0, DRAFT_POINTS).map((point) => shorten(point, 100)),
  );
  return `${OFFLINE_MARKER} ${heading}\n\n${draft}\n\n${bullets.map((b) => `- ${b}`).join('\n')}\n`;
}
