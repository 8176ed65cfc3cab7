import {
  type ConversationEntry,
  conversationQuotedIn,
  readConversation,
  type WorkflowProposal,
} from '../domain/ai-flow-creator';
import { type GeneratedWorkflow, referencedOrder, stepReference } from '../domain/workflow-json';
import {
  capitalised,
  firstSentence,
  isVietnamese,
  keywordsOf,
  OFFLINE_MARKER,
  shorten,
  withoutFullStop,
} from './offline-answer';
import {
  type AddedStepPrompt,
  type AskedChange,
  applyChanges,
  askedChange,
  type ChangesMade,
  requestsIn,
} from './offline-workflow-changes';

interface Wording {
  summary: (stepCount: number, goal: string) => string;
  added: (name: string) => string;
  removed: (name: string) => string;
  notDone: (requests: string) => string;
  impossible: (requests: string) => string;
  focus: (keywords: string[]) => string;
  steps: [Step, Step, Step];
  addedStep: (name: string, goal: string, previous: string | null) => string;
}

interface Step {
  name: string;
  prompt: (topic: string, focus: string) => string;
}

const VIETNAMESE: Wording = {
  summary: (stepCount, goal) => `${OFFLINE_MARKER} Workflow ${stepCount} bước cho: ${goal}.`,
  added: (name) => `đã thêm bước "${name}"`,
  removed: (name) => `đã bỏ bước "${name}"`,
  notDone: (requests) =>
    `model offline chưa làm được ${requests} (nó chỉ thêm hoặc bỏ bước, ví dụ "thêm bước …", "bỏ bước 2")`,
  impossible: (requests) => `không làm được ${requests} với các bước hiện có`,
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
  addedStep: (name, goal, previous) =>
    (previous === null ? '' : `Dựa trên kết quả của bước trước:\n${previous}\n\n`) +
    `Nhiệm vụ của bước này: ${name}.\nMục tiêu chung của workflow: ${goal}.\n` +
    'Trình bày kết quả cụ thể, có cấu trúc và dùng được ngay.',
};

const ENGLISH: Wording = {
  summary: (stepCount, goal) => `${OFFLINE_MARKER} A ${stepCount}-step workflow for: ${goal}.`,
  added: (name) => `added the step "${name}"`,
  removed: (name) => `removed the step "${name}"`,
  notDone: (requests) =>
    `the offline model could not do ${requests} (it only adds or removes steps, e.g. "add a step …", "remove step 2")`,
  impossible: (requests) => `could not do ${requests} with the current steps`,
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
  addedStep: (name, goal, previous) =>
    (previous === null ? '' : `Based on the result of the previous step:\n${previous}\n\n`) +
    `This step's task: ${name}.\nThe workflow's overall goal: ${goal}.\n` +
    'Give a concrete, structured result that can be used right away.',
};

/** Analyse, propose alternatives (multiple output), plan; each builds on the earlier ones. */
function threeSteps(wording: Wording, topic: string): GeneratedWorkflow['steps'] {
  const focus = wording.focus(keywordsOf(topic, 3));
  const [analyse, propose, plan] = wording.steps;
  return [
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
  ];
}

function firstParagraph(text: string): string {
  return (text.trim().split(/\n\s*\n/, 1)[0] ?? '').replace(/\s+/g, ' ').trim();
}

/** What the offline model is asked to build, read from a description or a creator conversation. */
interface Asked {
  /** The user's own words: the creator's user messages, or the description itself. */
  messages: string[];
  /** The messages that came before the first proposal: what that proposal was built from. */
  beforeProposals: string[];
  /** The proposal the conversation ended with, to be changed; null before the first one. */
  proposal: WorkflowProposal | null;
  /** The messages since that proposal: the changes asked of it. */
  since: string[];
}

function askedIn(description: string): Asked {
  const quoted = conversationQuotedIn(description);
  const entries: ConversationEntry[] = quoted === null ? [] : readConversation(quoted);
  const userWords = (list: ConversationEntry[]) =>
    list.flatMap((entry) => (entry.speaker === 'user' ? [entry.text] : []));
  const messages = userWords(entries);
  if (messages.length === 0) {
    return { messages: [description], beforeProposals: [description], proposal: null, since: [] };
  }
  const isProposal = (entry: ConversationEntry) => entry.speaker === 'proposal';
  const first = entries.findIndex(isProposal);
  const last = entries.findLastIndex(isProposal);
  const proposal = entries[last];
  return {
    messages,
    beforeProposals: first === -1 ? messages : userWords(entries.slice(0, first)),
    proposal: proposal?.speaker === 'proposal' ? proposal.proposal : null,
    since: userWords(entries.slice(last + 1)),
  };
}

const requestsOf = (messages: string[]) => messages.flatMap(requestsIn).map(askedChange);
const isDetail = (change: AskedChange) => change.kind === 'other';

/** Before a proposal, whatever is not a change of steps describes the work: it is the topic. */
const topicOf = (changes: AskedChange[], goal: string) =>
  shorten(
    changes
      .filter(isDetail)
      .map((change) => change.request)
      .join(' '),
    300,
  ) || goal;

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The proposal's steps with the line breaks of the offline model's own prompts given back: the
 * conversation carries every prompt on one line.
 */
function withLineBreaks(
  steps: WorkflowProposal['steps'],
  ownPrompts: string[],
  promptFor: AddedStepPrompt,
): WorkflowProposal['steps'] {
  return steps.map((step) => {
    const previous = step.inputSources.length === 1 ? referencedOrder(step.inputSources[0]!) : null;
    const candidates = [...ownPrompts, promptFor(step.name, previous)];
    const own = candidates.find((prompt) => flat(prompt) === step.systemPrompt);
    return own === undefined ? step : { ...step, systemPrompt: own };
  });
}

const MAX_QUOTED = 2;

/** A few requests quoted, in the user's words. */
function quoted(requests: string[]): string {
  const quotes = requests.slice(0, MAX_QUOTED).map((request) => `"${withoutFullStop(shorten(request, 80))}"`);
  return [...quotes, ...(requests.length > MAX_QUOTED ? ['…'] : [])].join(', ');
}

/**
 * A sentence or two: what the workflow is for and how many steps it has, then what was added, removed
 * or could not be done of what was just asked.
 */
function descriptionOf(wording: Wording, goal: string, made: ChangesMade): string {
  const outcome = [
    ...made.added.map(wording.added),
    ...made.removed.map(wording.removed),
    ...(made.impossible.length > 0 ? [wording.impossible(quoted(made.impossible))] : []),
    ...(made.notDone.length > 0 ? [wording.notDone(quoted(made.notDone))] : []),
  ];
  const summary = wording.summary(made.steps.length, goal);
  return shorten(outcome.length > 0 ? `${summary} ${capitalised(outcome.join('; '))}.` : summary, 600);
}

/**
 * The offline model's workflow for a description, or for a creator conversation (see
 * workflowDescriptionOf). Before a proposal exists it builds 3 steps (analyse, propose alternatives,
 * plan) from the user's words, with any step they asked to add or remove; once one exists it keeps that
 * proposal and makes the additions and removals asked since, saying in the description what it could not
 * do. Named after the first message, in its language (Vietnamese or English), the same for the same words.
 */
export function offlineWorkflow(description: string): GeneratedWorkflow {
  const asked = askedIn(description);
  const wording = isVietnamese(asked.messages.join('\n')) ? VIETNAMESE : ENGLISH;

  // The name comes from the first paragraph: later ones (wishes, a quoted conversation) are not a title.
  const name =
    capitalised(shorten(withoutFullStop(firstSentence(firstParagraph(description), 200)), 100)) || 'Workflow';
  const goal = withoutFullStop(firstSentence(asked.messages[0] ?? '', 150)) || name;
  const promptFor: AddedStepPrompt = (step, previous) =>
    wording.addedStep(step, goal, previous === null ? null : `[[${stepReference(previous)}]]`);

  const first = requestsOf(asked.beforeProposals);
  const firstSteps = threeSteps(wording, topicOf(first, goal));
  const made = asked.proposal
    ? applyChanges(
        withLineBreaks(
          asked.proposal.steps,
          firstSteps.map((step) => step.systemPrompt),
          promptFor,
        ),
        requestsOf(asked.since),
        promptFor,
      )
    : applyChanges(
        firstSteps,
        first.filter((change) => !isDetail(change)),
        promptFor,
      );
  return { name, description: descriptionOf(wording, goal, made), steps: made.steps };
}
