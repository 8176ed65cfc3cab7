/** What other features use of the reviews feature: the review parts of a step on the flow's screens. */
export { RequestReviewButton } from './components/request-review-dialog';
export { ResultReviewStatus } from './components/result-review-status';
export { StepReviewPanel } from './components/step-review-panel';
export { StepReviewRule, type UseRuleSave, useMayChangeReviewRules } from './components/step-review-rule';
