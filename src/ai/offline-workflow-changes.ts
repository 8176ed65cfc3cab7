import type { WorkflowProposal } from '../domain/ai-flow-creator';
import { referencedOrder, stepReference, WORKFLOW_MAX_STEPS } from '../domain/workflow-json';
import { capitalised, shorten } from './offline-answer';

type ProposalStep = WorkflowProposal['steps'][number];

/** Where an added step goes. */
type Place = { at: 'start' | 'end' } | { after: number } | { before: number };

/** Which step a removal names. */
type StepNamed = { order: number } | { last: true } | { name: string };

/** What one sentence of the user's message asks of the workflow, as far as the offline model can tell. */
export type AskedChange = { request: string } & (
  | { kind: 'add'; name: string; place: Place }
  | { kind: 'remove'; step: StepNamed }
  | { kind: 'agree' }
  | { kind: 'other' }
);

// Politeness and hedges before the verb ('hãy', 'please', 'I want to') change nothing of the request.
const LEAD_VI = '(?:(?:hãy|vui lòng|xin|làm ơn|giúp tôi|cho tôi|tôi muốn|mình muốn|cần|nên|và)\\s+)*';
const LEAD_EN = "(?:(?:please|can you|could you|also|and|i want to|i would like to|let's)\\s+)*";

const ADD = [
  new RegExp(
    `^${LEAD_VI}(?:thêm|bổ sung|chèn)(?:\\s+vào)?(?:\\s+(?:một|1))?\\s+bước(?:\\s+(?:mới|nữa))?(?:\\s*[:\\-–]\\s*|\\s+(?:để|về|là|tên là|có tên|gọi là)\\s+|\\s+)(.+)$`,
    'iu',
  ),
  new RegExp(
    `^${LEAD_EN}(?:add|insert|include|append)(?:\\s+(?:a|an|one|another))?(?:\\s+(?:new|extra|final|last|more|further|separate))*\\s+step(?:\\s*[:\\-–]\\s*|\\s+(?:to|for|that|which|called|named|about)\\s+|\\s+)(.+)$`,
    'iu',
  ),
];

const REMOVE = [
  new RegExp(
    `^${LEAD_VI}(?:bỏ|xoá|xóa|loại bỏ|loại|bớt|gỡ)(?:\\s+đi)?\\s+bước\\s+(?:số\\s+)?(.+?)(?:\\s+đi)?$`,
    'iu',
  ),
  new RegExp(`^${LEAD_EN}(?:remove|delete|drop)\\s+(?:the\\s+)?step\\s+(?:number\\s+)?(.+)$`, 'iu'),
  new RegExp(`^${LEAD_EN}(?:remove|delete|drop)\\s+the\\s+(.+?)\\s+step$`, 'iu'),
];

/** An agreement opening a message ('OK', 'Được rồi', 'Looks good'). */
const AGREEMENT =
  /^(?:ok(?:ay)?|oke|được(?: rồi)?|đồng ý|tốt(?: lắm)?|ổn(?: rồi)?|tuyệt(?: vời)?|cảm ơn|cám ơn|yes|yep|good|great|fine|perfect|thanks|thank you|looks good)(?=$|[\s,.!])[\s,.!]*/iu;
// After an agreement a few words more ('OK, tạo đi', 'yes, go ahead') still only agree.
const AGREEMENT_TAIL_WORDS = 3;

const PLACES: Array<[RegExp, (match: RegExpExecArray) => Place]> = [
  [
    /\s+(?:ngay\s+)?(sau|trước|after|before)\s+(?:bước|step)\s+(?:số\s+)?(\d+)$/iu,
    (m) => (/^(sau|after)$/iu.test(m[1]!) ? { after: Number(m[2]) } : { before: Number(m[2]) }),
  ],
  [/\s+(?:vào|ở|lên)\s+(?:đầu|trước)(?:\s+(?:tiên|cùng|workflow|quy trình))?$/iu, () => ({ at: 'start' })],
  [/\s+(?:vào|ở|xuống)\s+cuối(?:\s+(?:cùng|workflow|quy trình))?$/iu, () => ({ at: 'end' })],
  [
    /\s+(?:at|to)\s+the\s+(?:start|beginning)(?:\s+of\s+the\s+(?:workflow|flow))?$/iu,
    () => ({ at: 'start' }),
  ],
  [/\s+(?:at|to)\s+the\s+end(?:\s+of\s+the\s+(?:workflow|flow))?$/iu, () => ({ at: 'end' })],
];

/** A name as the user wrote it, without the quotes or the full stop around it. */
const unquoted = (text: string) =>
  text
    .trim()
    .replace(/[\s.!?;,]+$/u, '')
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/gu, '')
    .trim();

function addition(request: string, words: string): AskedChange {
  let name = words.trim().replace(/[\s.!?;,]+$/u, '');
  let place: Place = { at: 'end' };
  for (const [pattern, placeOf] of PLACES) {
    const match = pattern.exec(name);
    if (match) {
      place = placeOf(match);
      name = name.slice(0, match.index);
      break;
    }
  }
  return { request, kind: 'add', name: capitalised(shorten(unquoted(name), 100)), place };
}

function removal(request: string, words: string): AskedChange {
  const target = unquoted(words);
  const step: StepNamed = /^\d+$/.test(target)
    ? { order: Number(target) }
    : /^(?:cuối|cuối cùng|last|final)$/iu.test(target)
      ? { last: true }
      : /^(?:đầu|đầu tiên|first)$/iu.test(target)
        ? { order: 1 }
        : { name: target };
  return { request, kind: 'remove', step };
}

// A second request in the same sentence starts with its own verb: 'thêm bước X và bỏ bước 2'.
const NEXT_REQUEST =
  /\s*(?:,|;)?\s+(?:và|and|rồi|then)\s+(?=(?:thêm|bổ sung|chèn|bỏ|xoá|xóa|loại bỏ|add|insert|remove|delete|drop)\s)/iu;

/** The sentences and list items of a message, each a request of its own. */
export const requestsIn = (message: string): string[] =>
  message
    .normalize('NFC')
    .split(/\n+|(?<=[.!?;])\s+/)
    .flatMap((sentence) => sentence.split(NEXT_REQUEST))
    .map((sentence) => sentence.replace(/^\s*(?:[-*•]|\d+[.)])\s+/u, '').trim())
    .filter((sentence) => sentence !== '');

/** What one request asks: adding or removing a step, agreeing, or something else. */
export function askedChange(request: string): AskedChange {
  const text = request.normalize('NFC').replace(/\s+/g, ' ').trim();
  const words = text.replace(/[\s.!?;,]+$/u, '');
  const agreement = AGREEMENT.exec(words);
  const rest = agreement ? words.slice(agreement[0].length) : words;
  for (const pattern of ADD) {
    const match = pattern.exec(rest);
    if (match && unquoted(match[1]!) !== '') return addition(text, match[1]!);
  }
  for (const pattern of REMOVE) {
    const match = pattern.exec(rest);
    if (match && unquoted(match[1]!) !== '') return removal(text, match[1]!);
  }
  if (agreement && rest.split(' ').filter(Boolean).length <= AGREEMENT_TAIL_WORDS) {
    return { request: text, kind: 'agree' };
  }
  return { request: text, kind: 'other' };
}

/** The steps with each moved to `to(order)`; a step's references follow, and a reference to none goes. */
function renumbered(steps: readonly ProposalStep[], to: (order: number) => number | null): ProposalStep[] {
  return steps
    .map((step) => {
      const order = to(step.order)!;
      const moved = (reference: string) => {
        const earlier = referencedOrder(reference);
        return earlier === null ? undefined : to(earlier);
      };
      // Every [[label]] the prompt builder would resolve; only 'step-N' ones name a step by its order.
      const systemPrompt = step.systemPrompt.replace(/\[\[([^[\]]+)\]\]/g, (written, label: string) => {
        const target = moved(label);
        if (target === undefined) return written;
        return target === null ? '' : `[[${stepReference(target)}]]`;
      });
      const sources = step.inputSources
        .map(moved)
        .filter((n): n is number => typeof n === 'number' && n < order);
      return { ...step, order, systemPrompt, inputSources: [...new Set(sources)].map(stepReference) };
    })
    .sort((a, b) => a.order - b.order);
}

/** What applying the asked changes did, for the description to tell. */
export interface ChangesMade {
  steps: ProposalStep[];
  added: string[];
  removed: string[];
  /** The requests the offline model cannot carry out (anything but adding or removing), in the user's words. */
  notDone: string[];
  /** The additions and removals the steps did not allow: no such step, the only step, a full workflow. */
  impossible: string[];
}

/** The prompt of an added step, given the order of the step it follows (null when it comes first). */
export type AddedStepPrompt = (name: string, previous: number | null) => string;

function placeOrder(place: Place, count: number): number {
  const within = (order: number) => Math.min(Math.max(order, 1), count + 1);
  if ('after' in place) return within(place.after + 1);
  if ('before' in place) return within(place.before);
  return place.at === 'start' ? 1 : count + 1;
}

function stepNamed(steps: readonly ProposalStep[], named: StepNamed): ProposalStep | undefined {
  if ('last' in named) return steps.at(-1);
  if ('order' in named) return steps.find((step) => step.order === named.order);
  const wanted = named.name.toLocaleLowerCase('vi');
  return (
    steps.find((step) => step.name.toLocaleLowerCase('vi') === wanted) ??
    steps.find((step) => step.name.toLocaleLowerCase('vi').includes(wanted))
  );
}

/**
 * The steps with the asked additions and removals made, in order: an added step is a single-output
 * step on the result of the step before it; a removed step's followers take the result of the step
 * before it instead. What it cannot do is kept in the user's words: anything but adding or removing in
 * `notDone`, an addition or removal the steps do not allow in `impossible`.
 */
export function applyChanges(
  steps: readonly ProposalStep[],
  changes: readonly AskedChange[],
  promptFor: AddedStepPrompt,
): ChangesMade {
  const made: ChangesMade = { steps: [...steps], added: [], removed: [], notDone: [], impossible: [] };
  for (const change of changes) {
    switch (change.kind) {
      case 'agree':
        break;
      case 'other':
        made.notDone.push(change.request);
        break;
      case 'add': {
        if (made.steps.length >= WORKFLOW_MAX_STEPS) {
          made.impossible.push(change.request);
          break;
        }
        const order = placeOrder(change.place, made.steps.length);
        const previous = order > 1 ? order - 1 : null;
        made.steps = renumbered(made.steps, (n) => (n >= order ? n + 1 : n));
        made.steps.splice(order - 1, 0, {
          name: change.name,
          order,
          systemPrompt: promptFor(change.name, previous),
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: previous === null ? [] : [stepReference(previous)],
        });
        made.added.push(change.name);
        break;
      }
      case 'remove': {
        const step = stepNamed(made.steps, change.step);
        if (!step || made.steps.length <= 1) {
          made.impossible.push(change.request);
          break;
        }
        const gone = step.order;
        const before = gone > 1 ? gone - 1 : null;
        made.steps = renumbered(
          made.steps.filter((s) => s.order !== gone),
          (n) => (n === gone ? before : n > gone ? n - 1 : n),
        );
        made.removed.push(step.name);
        break;
      }
      default: {
        const unknown: never = change;
        throw new Error(`Unknown change ${String(unknown)}`);
      }
    }
  }
  return made;
}
