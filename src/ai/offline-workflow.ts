import type { GeneratedWorkflow } from '../domain/workflow-json';
import { firstSentence, isVietnamese, keywordsOf, OFFLINE_MARKER, shorten } from './offline-answer';

const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase('vi') + text.slice(1);

interface Wording {
  description: (topic: string) => string;
  focus: (keywords: string[]) => string;
  steps: [Step, Step, Step];
}

interface Step {
  name: string;
  prompt: (topic: string, focus: string) => string;
}

const VIETNAMESE: Wording = {
  description: (topic) => `${OFFLINE_MARKER} Workflow 3 bước do model offline dựng từ mô tả: ${topic}`,
  focus: (keywords) => (keywords.length > 0 ? ` Chú ý đặc biệt đến: ${keywords.join(', ')}.` : ''),
  steps: [
    {
      name: 'Phân tích yêu cầu',
      prompt: (topic, focus) =>
        `Bạn là một chuyên gia tư vấn giàu kinh nghiệm. Nhiệm vụ tổng thể: ${topic}\n\n` +
        'Hãy phân tích yêu cầu này: xác định mục tiêu chính, đối tượng liên quan, các ràng buộc (thời gian, ' +
        `ngân sách, nguồn lực) và những thông tin còn thiếu cần làm rõ.${focus} ` +
        'Trình bày bằng các gạch đầu dòng ngắn gọn.',
    },
    {
      name: 'Đề xuất phương án',
      prompt: (topic) =>
        'Dựa trên phân tích yêu cầu sau:\n[[step-1]]\n\n' +
        `Hãy đề xuất 3 phương án khác nhau để thực hiện: ${topic}\n` +
        'Với mỗi phương án, nêu ý tưởng chính, ưu điểm, nhược điểm và mức độ phù hợp với mục tiêu.',
    },
    {
      name: 'Kế hoạch thực hiện',
      prompt: (topic) =>
        'Phân tích yêu cầu:\n[[step-1]]\n\nCác phương án đã đề xuất:\n[[step-2]]\n\n' +
        'Hãy chọn phương án phù hợp nhất và giải thích ngắn gọn vì sao, rồi lập kế hoạch thực hiện chi tiết ' +
        `cho: ${topic}\nGồm các việc cụ thể theo thứ tự, người phụ trách gợi ý, mốc thời gian và cách đo ` +
        'lường kết quả.',
    },
  ],
};

const ENGLISH: Wording = {
  description: (topic) => `${OFFLINE_MARKER} A 3-step workflow built by the offline model from: ${topic}`,
  focus: (keywords) => (keywords.length > 0 ? ` Pay particular attention to: ${keywords.join(', ')}.` : ''),
  steps: [
    {
      name: 'Analyse the request',
      prompt: (topic, focus) =>
        `You are an experienced consultant. The overall task: ${topic}\n\n` +
        'Analyse this request: state the main goal, the people involved, the constraints (time, budget, ' +
        `resources) and the missing information that should be clarified.${focus} ` +
        'Answer in short bullet points.',
    },
    {
      name: 'Propose options',
      prompt: (topic) =>
        'Based on this analysis of the request:\n[[step-1]]\n\n' +
        `Propose 3 distinct ways to carry out: ${topic}\n` +
        'For each option give the core idea, its strengths, its weaknesses and how well it fits the goal.',
    },
    {
      name: 'Action plan',
      prompt: (topic) =>
        'Analysis of the request:\n[[step-1]]\n\nThe proposed options:\n[[step-2]]\n\n' +
        'Pick the best-fitting option and say briefly why, then write a detailed action plan for: ' +
        `${topic}\nList the concrete tasks in order, a suggested owner, milestones and how to measure the ` +
        'result.',
    },
  ],
};

function firstParagraph(text: string): string {
  return (text.trim().split(/\n\s*\n/, 1)[0] ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The offline model's workflow for a description: analyse, propose alternatives (multiple output), plan;
 * each step builds on the earlier ones through [[step-N]] and 'step-N' input sources. In the language
 * of the description (Vietnamese or English) and the same for the same description.
 */
export function offlineWorkflow(description: string): GeneratedWorkflow {
  const flat = description.replace(/\s+/g, ' ').trim();
  const topic = shorten(flat, 300) || 'the task';
  const wording = isVietnamese(flat) ? VIETNAMESE : ENGLISH;
  const focus = wording.focus(keywordsOf(flat, 3));
  const [analyse, propose, plan] = wording.steps;
  return {
    // The name comes from the first paragraph: later ones (wishes, a quoted conversation) are not a title.
    name:
      capitalised(shorten(firstSentence(firstParagraph(description), 200).replace(/[.!?]$/, ''), 100)) ||
      'Workflow',
    description: shorten(wording.description(topic), 2_000),
    steps: [
      {
        name: analyse.name,
        order: 1,
        systemPrompt: analyse.prompt(topic, focus),
        outputMode: 'single',
        requiresUserInput: false,
        inputSources: [],
      },
      {
        name: propose.name,
        order: 2,
        systemPrompt: propose.prompt(topic, focus),
        outputMode: 'multiple',
        requiresUserInput: false,
        inputSources: ['step-1'],
      },
      {
        name: plan.name,
        order: 3,
        systemPrompt: plan.prompt(topic, focus),
        outputMode: 'single',
        requiresUserInput: false,
        inputSources: ['step-1', 'step-2'],
      },
    ],
  };
}
