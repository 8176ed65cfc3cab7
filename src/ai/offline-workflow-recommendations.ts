import type { StepSnapshot } from '../domain/flow';
import { stepReference, type WorkflowJsonInput } from '../domain/workflow-json';
import type { DetectedPattern, FlowUsage } from '../domain/workflow-patterns';
import {
  MAX_RECOMMENDATIONS,
  type Priority,
  type RecommendationDraft,
  type RecommendedStep,
} from '../domain/workflow-recommendations';
import { OFFLINE_MARKER, shorten } from './offline-answer';
import { recommendationTitle } from './recommendation-titles';

/** What recommendations are made from: the user's flows with their history, and what they show. */
export interface RecommendationGrounds {
  flows: FlowUsage[];
  patterns: DetectedPattern[];
  /** Workflows the product ships with, offered to a user who has no flows yet. */
  builtinWorkflows: WorkflowJsonInput[];
}

const OFFLINE_TAG = 'offline-model';
const OFFLINE_NOTE =
  'Offline model tạo gợi ý này từ các flow của bạn; thêm Gemini API key để có gợi ý do AI viết.';
const STEP_REFERENCE = /\[\[step([-_])(\d+)\]\]/gi;

const quote = (text: string, max = 60) => `"${shorten(text, max)}"`;
const described = (text: string) => `${OFFLINE_MARKER} ${text} ${OFFLINE_NOTE}`;

/** A step as a recommendation shows and creates it: any of its configuration left out is the default. */
type StepInRecommendation = Pick<RecommendedStep, 'name' | 'systemPrompt' | 'outputMode'> &
  Partial<Pick<RecommendedStep, 'requiresUserInput' | 'inputSources' | 'choices' | 'maxLoopIterations'>>;

/** A new step the recommendation adds: one answer, no input of its own, reading no step's result as input. */
const newStep = (order: number, name: string, systemPrompt: string, reasoning: string): RecommendedStep => ({
  order,
  name,
  systemPrompt,
  outputMode: 'single',
  requiresUserInput: false,
  inputSources: [],
  choices: [],
  maxLoopIterations: 1,
  reasoning,
});

const asStep = (step: StepInRecommendation, order: number, reasoning: string): RecommendedStep => ({
  order,
  name: step.name,
  systemPrompt: step.systemPrompt.trim() || step.name,
  outputMode: step.outputMode,
  requiresUserInput: step.requiresUserInput ?? false,
  inputSources: step.inputSources ?? [],
  // A blank choice is an empty row of the step editor, not a choice (Workflow JSON has none).
  choices: (step.choices ?? []).filter((choice) => choice.trim() !== ''),
  maxLoopIterations: step.maxLoopIterations ?? 1,
  reasoning,
});

/**
 * A step of the user's flow as it stands in a recommendation, whole: its output mode, choices, loop count,
 * required input and input sources, those as 'step-N' of the orders the steps take in the recommendation
 * (`placed`: step id -> order there; a source left out of the recommendation is dropped).
 */
const flowStep = (
  step: StepSnapshot,
  order: number,
  reasoning: string,
  placed: ReadonlyMap<string, number>,
) =>
  asStep(
    {
      ...step,
      inputSources: step.inputSources
        .map((id) => placed.get(id))
        .filter((source) => source !== undefined && source < order)
        .map((source) => stepReference(source!)),
    },
    order,
    reasoning,
  );

/** Where each step lands when `steps` are placed in a recommendation from order `first` on. */
const placement = (steps: readonly StepSnapshot[], first = 1) =>
  new Map(steps.map((step, index) => [step.id, index + first]));

const kept = 'Giữ nguyên như trong flow của bạn.';

/** [[step-N]] placeholders moved by `shift` orders, for steps that moved down the flow. */
const shiftReferences = (prompt: string, shift: number) =>
  prompt.replace(
    STEP_REFERENCE,
    (_, separator: string, order: string) => `[[step${separator}${Number(order) + shift}]]`,
  );

function flowOf(grounds: RecommendationGrounds, flowId: string) {
  return grounds.flows.find((flow) => flow.id === flowId);
}

function reworkedStep(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'reworked_step' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const { edits, rejections, latestEdit, latestRejection, stepName, stepOrder } = pattern.data;
  const rework = edits + rejections;
  const lessons = [
    latestEdit ? `Viết theo cách đã được sửa lần gần nhất: ${quote(latestEdit.after, 200)}.` : null,
    latestRejection
      ? `Tránh những câu trả lời như câu đã bị loại này: ${quote(latestRejection, 200)}.`
      : null,
  ].filter((line) => line !== null);
  const evidence = [
    edits > 0 ? `${edits} kết quả bị sửa` : null,
    rejections > 0 ? `${rejections} kết quả bị loại` : null,
  ]
    .filter((part) => part !== null)
    .join(' và ');
  return {
    recommendationType: 'optimization',
    title: recommendationTitle('sharpen', { step: stepName, flow: flow.name }),
    description: described(
      `Trong "${flow.name}", Step ${stepOrder} "${stepName}" có ${evidence}. Những chỗ sửa đó nên nằm trong prompt, để câu trả lời đầu tiên không cần sửa lại.`,
    ),
    category: 'productivity',
    priority: rework >= 4 ? 'high' : 'medium',
    confidence: Math.min(95, 60 + rework * 8),
    baseFlowId: flow.id,
    recommendedSteps: flow.steps.map((step, index) =>
      step.id === pattern.data.stepId
        ? {
            ...flowStep(
              step,
              index + 1,
              `${evidence}; prompt giờ nói rõ điều mà các lần sửa đã nói.`,
              placement(flow.steps),
            ),
            systemPrompt: [step.systemPrompt.trim() || step.name, ...lessons].join('\n\n'),
          }
        : flowStep(step, index + 1, kept, placement(flow.steps)),
    ),
    benefits: [
      `Không phải sửa lại "${stepName}" sau mỗi lần chạy`,
      'Các step sau dựa trên câu trả lời đầu tốt hơn',
    ],
    estimatedTimeReduction: Math.min(60, rework * 5),
    implementationComplexity: 'low',
    tags: ['prompt', 'quality', OFFLINE_TAG],
  };
}

function rerunSingleStep(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'rerun_single_step' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const { stepName, stepOrder, reruns, runs } = pattern.data;
  return {
    recommendationType: 'automation',
    title: recommendationTitle('alternatives', { step: stepName, flow: flow.name }),
    description: described(
      `Step ${stepOrder} "${stepName}" của "${flow.name}" cho một câu trả lời, và đã được chạy lại ${reruns} lần (tổng cộng ${runs} lần chạy) để có câu khác. Là một step nhiều kết quả, nó cho nhiều phương án cùng lúc, và bạn approve những phương án muốn giữ.`,
    ),
    category: 'automation',
    priority: reruns >= 4 ? 'high' : 'medium',
    confidence: Math.min(90, 65 + reruns * 5),
    baseFlowId: flow.id,
    recommendedSteps: flow.steps.map((step, index) =>
      step.id === pattern.data.stepId
        ? {
            ...flowStep(
              step,
              index + 1,
              `Chạy ${runs} lần cho ${runs - reruns} execution: các phương án thay cho việc chạy lại.`,
              placement(flow.steps),
            ),
            outputMode: 'multiple',
            choices: [],
            maxLoopIterations: 1,
            systemPrompt: `${step.systemPrompt.trim() || step.name}\n\nĐưa ra 3 phương án khác nhau.`,
          }
        : flowStep(step, index + 1, kept, placement(flow.steps)),
    ),
    benefits: [
      'Nhiều câu trả lời cạnh nhau thay vì mỗi lần chạy một câu',
      'Ít lần gọi AI hơn cho cùng một lựa chọn',
    ],
    estimatedTimeReduction: Math.min(60, reruns * 2),
    implementationComplexity: 'low',
    tags: ['multiple-output', 'reruns', OFFLINE_TAG],
  };
}

function repeatedShapes(grounds: RecommendationGrounds): RecommendationDraft[] {
  const repeated = grounds.patterns.filter(
    (p): p is Extract<DetectedPattern, { type: 'repeated_step_shape' }> => p.type === 'repeated_step_shape',
  );
  const drafts: RecommendationDraft[] = [];
  const seen = new Set<string>();
  for (const pattern of repeated) {
    const [first] = pattern.data.occurrences;
    const flow = first && flowOf(grounds, first.flowId);
    if (!flow) continue;
    // The template is every step of that flow that other flows repeat: shapes shared by the same flows
    // make one template, not one each.
    const sharedIds = new Set(
      repeated.flatMap((p) => p.data.occurrences.filter((o) => o.flowId === flow.id).map((o) => o.stepId)),
    );
    const steps = flow.steps.filter((step) => sharedIds.has(step.id));
    const signature = `${flow.id}:${steps.map((s) => s.id).join(',')}`;
    if (seen.has(signature)) continue;
    seen.add(signature);
    const flowNames = [...new Set(pattern.data.occurrences.map((o) => `"${o.flowName}"`))];
    const count = pattern.data.occurrences.length;
    drafts.push({
      recommendationType: 'template',
      title: recommendationTitle('template', { steps: steps.map((s) => s.name) }),
      description: described(
        `Step "${pattern.data.stepName}" (output ${pattern.data.outputMode}) có trong ${count} flow của bạn: ${flowNames.join(', ')}. Một template giữ ở một chỗ những step bạn dựng đi dựng lại.`,
      ),
      category: 'productivity',
      priority: count >= 3 ? 'high' : 'medium',
      confidence: Math.min(90, 70 + (count - 2) * 5),
      baseFlowId: flow.id,
      recommendedSteps: steps.map((step, index) =>
        flowStep(step, index + 1, `Có trong ${flowNames.join(', ')}.`, placement(steps)),
      ),
      benefits: ['Bắt đầu flow mới từ những step bạn đã tin dùng', 'Một chỗ để cải thiện prompt lặp lại'],
      estimatedTimeReduction: 5 * count,
      implementationComplexity: 'low',
      tags: ['template', 'reuse', OFFLINE_TAG],
    });
  }
  return drafts;
}

function unusedFlow(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'unused_flow' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const brief = newStep(
    1,
    `Brief cho ${shorten(flow.name, 120)}`,
    `Đọc input của người dùng cho "${flow.name}" (${shorten(flow.description, 300)}) và viết lại thành một brief ngắn: mục tiêu, đối tượng, tư liệu được đưa và các ràng buộc. Không hỏi lại; ghi chú những gì còn thiếu.`,
    'Một step đầu nhận input của bạn giúp flow sẵn sàng chạy trên tư liệu thật.',
  );
  return {
    recommendationType: 'enhancement',
    title: recommendationTitle('brief', { flow: flow.name }),
    description: described(
      `"${flow.name}" có ${pattern.data.stepCount} step nhưng chưa chạy lần nào. Bắt đầu bằng một brief từ input của bạn cho mọi step cùng một tư liệu rõ ràng.`,
    ),
    category: 'other',
    priority: 'low',
    confidence: 60,
    baseFlowId: flow.id,
    recommendedSteps: [
      brief,
      ...flow.steps.map((step, index) => ({
        ...flowStep(
          step,
          index + 2,
          'Lùi xuống một vị trí; các tham chiếu của nó đi theo.',
          placement(flow.steps, 2),
        ),
        systemPrompt: shiftReferences(step.systemPrompt.trim() || step.name, 1),
      })),
    ],
    benefits: ['Sẵn sàng chạy trên input thật', 'Mọi step bắt đầu từ cùng một brief'],
    estimatedTimeReduction: 5,
    implementationComplexity: 'low',
    tags: ['input', 'first-run', OFFLINE_TAG],
  };
}

function longFlow(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'long_flow' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const half = Math.ceil(flow.steps.length / 2);
  const firstPart = flow.steps.slice(0, half);
  const last = firstPart.at(-1)!;
  return {
    recommendationType: 'optimization',
    title: recommendationTitle('split', { flow: flow.name }),
    description: described(
      `"${flow.name}" có ${pattern.data.stepCount} step. ${half} step đầu (đến "${last.name}") thành một flow riêng, kết thúc bằng một bản tóm tắt bàn giao; phần còn lại có thể bắt đầu từ bản tóm tắt đó.`,
    ),
    category: 'productivity',
    priority: pattern.data.stepCount >= 10 ? 'medium' : 'low',
    confidence: 55,
    baseFlowId: flow.id,
    recommendedSteps: [
      ...firstPart.map((step, index) => flowStep(step, index + 1, kept, placement(firstPart))),
      newStep(
        half + 1,
        'Tóm tắt bàn giao',
        `Tóm tắt [[step-${half}]] làm tư liệu đầu vào cho phần tiếp theo của "${flow.name}": các quyết định đã đưa ra, các dữ kiện cần giữ và các câu hỏi còn mở.`,
        `Để ${flow.steps.length - half} step còn lại chạy thành một flow riêng.`,
      ),
    ],
    benefits: ['Mỗi lần chạy ngắn hơn, dễ xem lại hơn', 'Mỗi phần có thể chạy lại riêng'],
    estimatedTimeReduction: 10,
    implementationComplexity: 'medium',
    tags: ['structure', OFFLINE_TAG],
  };
}

/** When the history shows nothing to fix: a review step on the flow made last. */
function reviewStep(flow: FlowUsage): RecommendationDraft {
  const lastOrder = flow.steps.length;
  return {
    recommendationType: 'enhancement',
    title: recommendationTitle('review', { flow: flow.name }),
    description: described(
      `Các lần chạy flow của bạn chưa cho thấy cần thay đổi gì. Một step cuối kiểm tra câu trả lời của "${flow.steps.at(-1)!.name}" sẽ bắt được chỗ thiếu trước khi bạn dùng.`,
    ),
    category: 'analysis',
    priority: 'low',
    confidence: 50,
    baseFlowId: flow.id,
    recommendedSteps: [
      ...flow.steps.map((step, index) => flowStep(step, index + 1, kept, placement(flow.steps))),
      newStep(
        lastOrder + 1,
        'Review',
        `Review [[step-${lastOrder}]] cho "${flow.name}": liệt kê những gì sai, thiếu hoặc chưa rõ, rồi đưa ra bản đã cải thiện.`,
        'Một bước kiểm tra trước khi dùng câu trả lời.',
      ),
    ],
    benefits: ['Ít lỗi lọt vào câu trả lời cuối hơn'],
    estimatedTimeReduction: 5,
    implementationComplexity: 'low',
    tags: ['review', 'quality', OFFLINE_TAG],
  };
}

function builtinTemplate(workflow: WorkflowJsonInput): RecommendationDraft {
  return {
    recommendationType: 'template',
    title: recommendationTitle('builtin', { flow: workflow.name ?? undefined }),
    description: described(
      `Bạn chưa có flow nào. "${workflow.name}" là một workflow ${workflow.steps.length} step dùng được ngay: ${shorten(workflow.description ?? '', 300)}`,
    ),
    category: 'business',
    priority: 'medium',
    confidence: 50,
    baseFlowId: null,
    recommendedSteps: workflow.steps.map((step, index) => asStep(step, index + 1, 'Từ template có sẵn.')),
    benefits: ['Một flow chạy được chỉ với một cú bấm', 'Một ví dụ về các step nối tiếp nhau'],
    estimatedTimeReduction: 15,
    implementationComplexity: 'low',
    tags: ['template', 'getting-started', OFFLINE_TAG],
  };
}

const PRIORITY_RANK: Record<Priority, number> = { urgent: 0, high: 1, medium: 2, low: 3 };

/**
 * The offline model's recommendations: deterministic, each made from a pattern of the user's own flows
 * (naming the flows and steps it comes from), most pressing first.
 */
export function offlineWorkflowRecommendations(grounds: RecommendationGrounds): RecommendationDraft[] {
  const drafts: RecommendationDraft[] = [...repeatedShapes(grounds)];
  for (const pattern of grounds.patterns) {
    const draft =
      pattern.type === 'reworked_step'
        ? reworkedStep(grounds, pattern)
        : pattern.type === 'rerun_single_step'
          ? rerunSingleStep(grounds, pattern)
          : pattern.type === 'unused_flow'
            ? unusedFlow(grounds, pattern)
            : pattern.type === 'long_flow'
              ? longFlow(grounds, pattern)
              : null;
    if (draft) drafts.push(draft);
  }
  if (drafts.length === 0) {
    const withSteps = grounds.flows.filter((flow) => flow.steps.length > 0);
    const latest = withSteps.at(-1);
    if (latest) drafts.push(reviewStep(latest));
    else drafts.push(...grounds.builtinWorkflows.map(builtinTemplate));
  }
  return drafts
    .map((draft, index) => ({ draft, index }))
    .sort(
      (a, b) =>
        PRIORITY_RANK[a.draft.priority] - PRIORITY_RANK[b.draft.priority] ||
        b.draft.confidence - a.draft.confidence ||
        a.index - b.index,
    )
    .slice(0, MAX_RECOMMENDATIONS)
    .map(({ draft }) => draft);
}
