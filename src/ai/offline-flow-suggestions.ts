import { detectLabels } from '../domain/execution/prompt';
import type { StepSnapshot } from '../domain/flow';
import { type FlowReview, type FlowSuggestions, stepOfFact } from '../domain/flow-suggestions';
import { OFFLINE_MARKER, shorten } from './offline-answer';

/** What the flow's own history says of one step, each finding a sentence and a weight for ranking. */
interface Finding {
  weight: number;
  text: string;
}

const STEP_BY_ORDER = /^step[-_](\d+)$/i;
const SHORT_PROMPT = 40;

const quote = (text: string, max = 80) => `"${shorten(text, max)}"`;

function factsOf<T extends { stepId: string | null; stepOrder: number | null }>(
  review: FlowReview,
  step: StepSnapshot,
  facts: readonly T[],
): T[] {
  return facts.filter((fact) => stepOfFact(review.steps, fact)?.id === step.id);
}

function findingsFor(review: FlowReview, step: StepSnapshot): Finding[] {
  const findings: Finding[] = [];
  const earlier = review.steps.filter((s) => s.order < step.order);
  const labels = detectLabels(step.systemPrompt);

  if (step.systemPrompt.trim() === '') {
    findings.push({ weight: 5, text: 'Prompt đang trống: hãy nói step này phải tạo ra gì.' });
  } else if (step.systemPrompt.trim().length < SHORT_PROMPT) {
    findings.push({
      weight: 1,
      text: `Prompt còn ngắn (${quote(step.systemPrompt, SHORT_PROMPT)}): hãy nêu đối tượng, định dạng và độ dài của câu trả lời.`,
    });
  }

  const previous = earlier.at(-1);
  if (previous && labels.length === 0 && step.inputSources.length === 0) {
    findings.push({
      weight: 4,
      text: `Step này không dùng gì từ các step trước: hãy viết [[step-${previous.order}]] ở chỗ cần dựa trên câu trả lời của "${previous.name}".`,
    });
  }
  for (const label of labels) {
    const byOrder = STEP_BY_ORDER.exec(label);
    if (byOrder && !earlier.some((s) => s.order === Number(byOrder[1]))) {
      findings.push({
        weight: 4,
        text: `[[${label}]] không trỏ tới step nào phía trước, nên AI chỉ thấy placeholder thay vì một kết quả.`,
      });
    }
  }

  const counts = review.resultCounts.find((c) => c.stepId === step.id);
  if (step.outputMode === 'multiple' && counts && counts.total > 0 && counts.approved === 0) {
    findings.push({
      weight: 3,
      text: `Chưa phương án nào trong ${counts.total} phương án được approve: hãy approve những phương án mà các step sau cần dựa vào, hoặc chuyển thành step một kết quả nếu một câu trả lời là đủ.`,
    });
  }
  if (step.outputMode === 'multiple_choice' && step.choices.length < 2) {
    findings.push({
      weight: 3,
      text: 'Đây là step lựa chọn nhưng có ít hơn 2 choices, nên không có gì để chọn: hãy thêm các lựa chọn.',
    });
  }
  if (step.outputMode === 'loop' && step.maxLoopIterations <= 1) {
    findings.push({
      weight: 2,
      text: 'Đây là loop chỉ chạy một lần: hãy tăng số vòng lặp (thường 3 đến 5) hoặc chuyển thành step một kết quả.',
    });
  }

  const edits = factsOf(review, step, review.edits);
  if (edits[0]) {
    findings.push({
      weight: 2 + edits.length,
      text: `Kết quả của step này đã bị sửa ${edits.length} lần, gần nhất từ ${quote(edits[0].before)} thành ${quote(edits[0].after)}: hãy đưa điều bạn đã sửa vào prompt để câu trả lời đầu tiên không cần sửa.`,
    });
  }
  const rejected = factsOf(review, step, review.rejectedIdeas);
  if (rejected[0]) {
    findings.push({
      weight: 2 + rejected.length,
      text: `${rejected.length} kết quả đã bị loại, gần nhất ${quote(rejected[0].content)}: hãy ghi trong prompt những gì cần tránh.`,
    });
  }
  const requests = factsOf(review, step, review.requests);
  const failures = requests.filter((r) => !r.success);
  if (failures[0]) {
    findings.push({
      weight: 3 + failures.length,
      text: `${failures.length} trong ${requests.length} lần chạy thất bại, gần nhất với lỗi ${quote(failures[0].errorMessage ?? 'không có thông báo', 160)}.`,
    });
  }
  return findings;
}

function suggestionFor(review: FlowReview, step: StepSnapshot, findings: Finding[]): string {
  if (findings.length > 0) return `${OFFLINE_MARKER} ${findings.map((f) => f.text).join(' ')}`;
  // Whether it ran is read from its results, which the executions keep: the request log can be cleared.
  const results = review.resultCounts.find((c) => c.stepId === step.id)?.total ?? 0;
  const history =
    results === 0
      ? 'Step này chưa chạy lần nào'
      : `${results} kết quả của step này không có lỗi, lần sửa hay kết quả bị loại nào`;
  return `${OFFLINE_MARKER} ${history}. Để rõ hơn, hãy nói trong prompt câu trả lời có dạng gì (danh sách, bảng, độ dài).`;
}

function strategicRecommendation(
  review: FlowReview,
  ranked: Array<{ step: StepSnapshot; findings: Finding[] }>,
) {
  const { flow, steps, requests, edits, rejectedIdeas } = review;
  const failed = requests.filter((r) => !r.success).length;
  const lines = [
    `${OFFLINE_MARKER} **${flow.name}**: ${steps.length} step${steps.length > 0 ? ` (${steps.map((s) => s.name).join(' → ')})` : ''}.`,
    '',
    `- Lịch sử: ${requests.length} lần gọi AI (${failed} thất bại), ${edits.length} kết quả bị sửa, ${rejectedIdeas.length} rejected idea.`,
  ];
  const [first] = ranked;
  if (steps.length === 0) {
    lines.push('- Bắt đầu từ các step: thêm một step đầu tiên nêu nhiệm vụ của flow.');
  } else if (first && first.findings.length > 0) {
    const top = [...first.findings].sort((a, b) => b.weight - a.weight)[0]!;
    lines.push(`- Bắt đầu với Step ${first.step.order} "${first.step.name}": ${top.text}`);
    const others = ranked.slice(1).filter((r) => r.findings.length > 0);
    if (others.length > 0) {
      lines.push(`- Sau đó: ${others.map((r) => `Step ${r.step.order} "${r.step.name}"`).join(', ')}.`);
    }
  } else {
    lines.push(
      '- Các lần chạy đến nay chưa cho thấy cần thay đổi gì; hãy chạy flow với input thật để biết thêm.',
    );
  }
  if (edits.length + rejectedIdeas.length > 0) {
    lines.push(
      '- Những lần sửa và loại kết quả là dấu hiệu rõ nhất prompt còn thiếu gì: mỗi chỗ được sửa trong prompt sẽ bớt được việc đó ở mọi lần chạy sau.',
    );
  }
  lines.push(
    '',
    '_Offline model tạo gợi ý này từ flow và lịch sử của nó; thêm Gemini API key để có gợi ý do AI viết._',
  );
  return lines.join('\n');
}

/**
 * The offline model's suggestions: deterministic, made only from what the flow itself shows (its
 * prompts, references, output modes, and its runs, edits, rejections and failures).
 */
export function offlineFlowSuggestions(review: FlowReview): FlowSuggestions {
  const steps = [...review.steps].sort((a, b) => a.order - b.order);
  const judged = steps.map((step) => ({ step, findings: findingsFor(review, step) }));
  const weight = (findings: Finding[]) => findings.reduce((sum, f) => sum + f.weight, 0);
  const ranked = [...judged].sort(
    (a, b) => weight(b.findings) - weight(a.findings) || a.step.order - b.step.order,
  );
  return {
    suggestions: judged.map(({ step, findings }) => ({
      stepOrder: step.order,
      stepName: step.name,
      suggestion: suggestionFor(review, step, findings),
    })),
    strategicRecommendation: strategicRecommendation(review, ranked),
  };
}
