import { ModelCallError, type ModelProvider } from './model-provider';
import { isVietnamese, OFFLINE_MARKER, shorten } from './offline-answer';

/** Longer than a description needs to be; a longer answer is cut there. */
export const IMPROVEMENT_MAX_LENGTH = 4_000;

const INSTRUCTION = [
  'You help a person describe a multi-step AI prompt workflow before it is built. Rewrite their',
  'description so that a workflow designer can build it without asking back:',
  '- the goal, stated in one sentence;',
  '- the input the person will give and the audience, tone or constraints they mention or imply;',
  '- the stages the work naturally falls into (3 to 7), in order, one line each;',
  '- the expected final output (format, length).',
  'Keep everything the person asked for and invent no facts about them. Answer in the language of their',
  'description, as plain text with short lines, without a preamble or closing remarks, in at most 180 words.',
].join('\n');

interface Wording {
  heading: string;
  goal: string;
  details: string;
  input: string;
  stages: string;
  stageLines: (topic: string) => [string, string, string];
  output: string;
}

const VIETNAMESE_HEADING = 'Mô tả đã được làm rõ (model offline, dựng theo khuôn mẫu):';

const VIETNAMESE: Wording = {
  heading: VIETNAMESE_HEADING,
  goal: 'Mục tiêu',
  details: 'Yêu cầu thêm',
  input:
    'Đầu vào: bối cảnh cụ thể, đối tượng hướng tới, giọng văn và giới hạn (thời gian, độ dài, ngân sách).',
  stages: 'Các giai đoạn:',
  stageLines: (topic) => [
    `Phân tích yêu cầu: mục tiêu, đối tượng và thông tin còn thiếu cho "${topic}".`,
    'Đề xuất vài phương án khác nhau để người dùng chọn.',
    'Hoàn thiện phương án được chọn thành kết quả cuối cùng, kèm các bước thực hiện.',
  ],
  output: 'Kết quả mong muốn: một tài liệu rõ ràng, có cấu trúc, dùng được ngay.',
};

const ENGLISH: Wording = {
  // What the offline model says of itself is in Vietnamese like the rest of the UI.
  heading: VIETNAMESE_HEADING,
  goal: 'Goal',
  details: 'Further requirements',
  input:
    'Input: the specific context, the intended audience, the tone and the limits (time, length, budget).',
  stages: 'Stages:',
  stageLines: (topic) => [
    `Analyse the request: the goal, the audience and the missing information for "${topic}".`,
    'Propose several distinct options for the person to choose from.',
    'Turn the chosen option into the final result, with the steps to carry it out.',
  ],
  output: 'Expected output: a clear, structured document that can be used right away.',
};

/**
 * The offline model's improvement: the description laid out as goal, input, the three stages its
 * workflow will have (the offline workflow's analyse, propose, finish) and the expected output, in the
 * language of the description. The same for the same description.
 */
export function offlineDescriptionImprovement(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const wording = isVietnamese(flat) ? VIETNAMESE : ENGLISH;
  // The first sentence is the goal; whatever else was said is kept word for word.
  const end = flat.search(/[.!?](\s|$)/);
  const first = end === -1 ? flat : flat.slice(0, end + 1);
  const details = flat.slice(first.length).trim();
  const goal = first.replace(/[.!?]$/, '');
  return [
    `${OFFLINE_MARKER} ${wording.heading}`,
    `${wording.goal}: ${shorten(goal, 300)}.`,
    ...(details === '' ? [] : [`${wording.details}: ${details}`]),
    wording.input,
    wording.stages,
    ...wording.stageLines(shorten(goal, 80)).map((line, i) => `${i + 1}. ${line}`),
    wording.output,
  ].join('\n');
}

/**
 * An improved version of a workflow description (the AI flow creator's first answer): clearer goal,
 * input, stages and output. The offline model lays the description out by a template; a real model
 * rewrites it. A failed call or an empty answer is a ModelCallError.
 */
export async function improveDescription(
  provider: ModelProvider,
  description: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<string> {
  if (provider.kind === 'offline') return offlineDescriptionImprovement(description);
  const answer = await provider.stream({
    system: INSTRUCTION,
    prompt: description,
    ...(signal ? { signal } : {}),
  }).final;
  const text = answer.text.trim();
  if (text === '') {
    throw new ModelCallError('The model gave an empty answer. Try again.', { retryable: true });
  }
  return text.slice(0, IMPROVEMENT_MAX_LENGTH);
}
