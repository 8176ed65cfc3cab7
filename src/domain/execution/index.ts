export { NOT_A_LOOP } from './cache-layout';
export { MESSAGES as EXECUTION_MESSAGES } from './decide';
export { decider } from './decider';
export { evolve, initialState } from './evolve';
export { type OutputResult, parseStepOutput, type StepOutput } from './output';
export { type BuiltPrompt, buildPrompt, detectLabels, type PromptInput, referencedResults } from './prompt';
export {
  firstPendingCacheItem,
  nextQueueItem,
  progress,
  resultsOfStep,
  runningRun,
  shownStatus,
} from './queries';
export * from './types';
