import { decider } from './decider';
import { settledByOwner } from './reviews';
import { type DiffPart, diffText } from './text-diff';
import type { ExecutionEvent, ExecutionState, KeySource } from './types';

/**
 * The words a history is told in. They are handed in rather than written here so that every visible
 * string stays in the web app's one catalogue; `actor` is the display name of who caused the event, or
 * null when the log does not say.
 */
export interface HistoryWords {
  executionStarted: (actor: string | null) => string;
  stepList: (steps: string[]) => string;
  stepsSynced: string;
  resultsReused: (steps: string[], sourceStartedAt: string) => string;
  step: (order: number, name: string | null) => string;
  runStarted: (step: string, input: string) => string;
  runAgain: (step: string, version: number, input: string) => string;
  runModel: (model: string, keySource: string) => string;
  keySources: Record<KeySource, string>;
  defaultInput: string;
  runSucceeded: (step: string, resultCount: number) => string;
  resultLabels: (labels: string[]) => string;
  runFailed: (step: string, message: string) => string;
  resultApproved: (label: string, actor: string | null) => string;
  resultUnapproved: (label: string, actor: string | null) => string;
  resultEdited: (label: string, actor: string | null) => string;
  labelChanged: (before: string, after: string) => string;
  resultDeleted: (label: string, actor: string | null) => string;
  deletedBecomesRejectedIdea: string;
  /** `who`: the people or role asked, as reviewAskedOf says it. */
  reviewRequested: (step: string, who: string, actor: string | null) => string;
  reviewAskedMembers: (count: number) => string;
  reviewAskedRole: (role: string) => string;
  reviewApprovals: (needed: number, dueAt: string | null, note: string | null) => string;
  reviewApproved: (
    step: string,
    actor: string | null,
    role: string | null,
    given: number,
    needed: number,
    /** An owner's approval that settles a review too few people could decide. */
    byOwner: boolean,
  ) => string;
  reviewRejected: (step: string, actor: string | null, role: string | null) => string;
  /** How long the review had waited when this decision came, and what the person wrote. */
  reviewDecisionDetail: (waitedMs: number, text: string | null) => string;
  /** The review was still waiting at its due time, and what that did. */
  reviewDue: (step: string, onDue: 'remind' | 'escalate' | 'fail') => string;
  reviewHandedBack: (step: string, userId: string) => string;
  /** Fewer people may decide the review than it needs: the owners may decide it. */
  reviewSentToOwners: (step: string) => string;
  /** A review asked again because its results were edited or one deleted. */
  reviewAskedAgain: (because: 'edited' | 'deleted') => string;
  reviewWithdrawn: (step: string) => string;
  executionStopped: (actor: string | null) => string;
  executionReset: (actor: string | null) => string;
  resetDetail: string;
  executionCompleted: string;
  unknownResult: string;
}

/** One point of the history in plain words; an edit carries the before/after of its text. */
export interface HistoryEntryText {
  title: string;
  detail: string | null;
  diff: DiffPart[] | null;
}

/** Long inputs are quoted by their start: the whole input is in the run's prompt. */
const QUOTE_LIMIT = 80;

function quoted(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > QUOTE_LIMIT ? `${oneLine.slice(0, QUOTE_LIMIT - 1)}…` : oneLine;
}

/**
 * Says what an event did, given the execution as it stood just before it: the state names the steps,
 * the results an event points at by id, and how many times a step had run already.
 */
export function describeEvent(
  event: ExecutionEvent,
  before: ExecutionState,
  words: HistoryWords,
  actor: string | null = null,
): HistoryEntryText {
  const text = (title: string, detail: string | null = null, diff: DiffPart[] | null = null) => ({
    title,
    detail,
    diff,
  });
  const stepName = (stepId: string, order: number) =>
    words.step(order, before.steps.find((s) => s.id === stepId)?.name ?? null);
  const stepOfRun = (runId: string) => {
    const run = before.runs.find((r) => r.runId === runId);
    return run ? stepName(run.stepId, run.stepOrder) : words.step(0, null);
  };
  const resultLabel = (resultId: string) => {
    const result = before.results.find((r) => r.id === resultId);
    return result?.label ?? words.unknownResult;
  };
  const resultStep = (resultId: string) => {
    const result = before.results.find((r) => r.id === resultId);
    return result ? stepName(result.stepId, result.stepOrder) : null;
  };
  /** The step a review is of, and how long it had waited at `at`. */
  const reviewed = (reviewId: string, at: string) => {
    const review = before.reviews.find((r) => r.id === reviewId);
    const order = before.steps.find((s) => s.id === review?.stepId)?.order ?? 0;
    return {
      step: review ? stepName(review.stepId, order) : words.step(0, null),
      waited: review ? Date.parse(at) - Date.parse(review.requestedAt) : 0,
    };
  };

  switch (event.type) {
    case 'ExecutionStarted':
      return text(
        words.executionStarted(actor),
        words.stepList(event.data.steps.map((s) => words.step(s.order, s.name))),
      );

    case 'StepsSynced':
      return text(
        words.stepsSynced,
        words.stepList(event.data.steps.map((s) => words.step(s.order, s.name))),
      );

    case 'ResultsReused': {
      const { data } = event;
      const steps = data.stepIds.map((id) => {
        const step = before.steps.find((s) => s.id === id);
        return words.step(step?.order ?? 0, step?.name ?? null);
      });
      return text(
        words.resultsReused(steps, data.sourceStartedAt),
        words.resultLabels(data.results.map((r) => r.label ?? words.unknownResult)),
      );
    }

    case 'StepRunStarted': {
      const { data } = event;
      const step = stepName(data.stepId, data.stepOrder);
      const input = quoted(data.userInput) || words.defaultInput;
      // Versions count the runs that gave results, as the run screen's 'Version n' pager does.
      const earlier = before.runs.filter(
        (r) => r.stepId === data.stepId && r.loopIteration === data.loopIteration && r.status === 'succeeded',
      ).length;
      const title = earlier === 0 ? words.runStarted(step, input) : words.runAgain(step, earlier + 1, input);
      return text(title, words.runModel(data.model, words.keySources[data.keySource] ?? data.keySource));
    }

    case 'StepRunSucceeded': {
      const { results } = event.data;
      return text(
        words.runSucceeded(stepOfRun(event.data.runId), results.length),
        words.resultLabels(results.map((r) => r.label)),
      );
    }

    case 'StepRunFailed':
      return text(words.runFailed(stepOfRun(event.data.runId), event.data.message));

    case 'ResultApproved':
      return text(
        words.resultApproved(resultLabel(event.data.resultId), actor),
        resultStep(event.data.resultId),
      );

    case 'ResultUnapproved':
      return text(
        words.resultUnapproved(resultLabel(event.data.resultId), actor),
        resultStep(event.data.resultId),
      );

    case 'ResultEdited': {
      const { resultId, before: oldText, after, label } = event.data;
      const oldLabel = before.results.find((r) => r.id === resultId)?.label ?? null;
      const relabelled = oldLabel !== null && oldLabel !== label;
      const step = resultStep(resultId);
      const detail = [step, relabelled ? words.labelChanged(oldLabel, label) : null]
        .filter((part) => part !== null)
        .join(' · ');
      return text(
        words.resultEdited(oldLabel ?? label, actor),
        detail || null,
        oldText === after ? null : diffText(oldText, after),
      );
    }

    case 'ResultDeleted':
      return text(
        words.resultDeleted(resultLabel(event.data.resultId), actor),
        words.deletedBecomesRejectedIdea,
      );

    case 'ReviewRequested': {
      const { data } = event;
      const step = stepName(data.stepId, before.steps.find((s) => s.id === data.stepId)?.order ?? 0);
      const who =
        data.by === 'role'
          ? words.reviewAskedRole(data.role ?? 'reviewer')
          : words.reviewAskedMembers(data.userIds.length);
      const approvals = words.reviewApprovals(data.approvals, data.dueAt, data.note);
      return text(
        words.reviewRequested(step, who, actor),
        data.asksAgain ? `${words.reviewAskedAgain(data.asksAgain.because)} · ${approvals}` : approvals,
      );
    }

    case 'ReviewDue': {
      const { step, waited } = reviewed(event.data.reviewId, event.data.at);
      return text(words.reviewDue(step, event.data.onDue), words.reviewDecisionDetail(waited, null));
    }

    case 'ReviewHandedBack':
      return text(
        words.reviewHandedBack(reviewed(event.data.reviewId, event.data.at).step, event.data.userId),
      );

    case 'ReviewSentToOwners':
      return text(words.reviewSentToOwners(reviewed(event.data.reviewId, event.data.at).step));

    case 'ReviewWithdrawn':
      return text(words.reviewWithdrawn(reviewed(event.data.reviewId, event.data.at).step));

    case 'ReviewApproved':
    case 'ReviewRejected': {
      const { data } = event;
      const review = before.reviews.find((r) => r.id === data.reviewId);
      const { step, waited } = reviewed(data.reviewId, data.at);
      if (event.type === 'ReviewRejected')
        return text(
          words.reviewRejected(step, actor, event.data.role),
          words.reviewDecisionDetail(waited, event.data.reason),
        );
      const given = (review?.approvalsGiven.length ?? 0) + 1;
      const byOwner = review !== undefined && settledByOwner(review, event.data.role);
      return text(
        words.reviewApproved(step, actor, event.data.role, given, review?.approvalsNeeded ?? given, byOwner),
        words.reviewDecisionDetail(waited, event.data.comment),
      );
    }

    case 'ExecutionStopped':
      return text(words.executionStopped(actor));

    case 'ExecutionReset':
      return text(words.executionReset(actor), words.resetDetail);

    case 'ExecutionCompleted':
      return text(words.executionCompleted);

    default: {
      const unknown: never = event;
      return text((unknown as { type: string }).type);
    }
  }
}

/**
 * The execution after each event: `states[n]` has the first n events applied, so `states[0]` is the
 * state before anything happened. Folded with the same evolve as everywhere else.
 */
export function statesAlong(events: readonly ExecutionEvent[]): ExecutionState[] {
  const states = [decider.initialState()];
  for (const event of events) states.push(decider.evolve(states[states.length - 1]!, event));
  return states;
}
