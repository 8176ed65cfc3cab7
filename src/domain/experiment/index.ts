export type { ExperimentCommand, ExperimentContext } from './commands';
export * from './config';
export { decider, EXPERIMENT_MESSAGES, MAX_SCORES_PER_RECORD, SCORE_COMMENT_MAX_LENGTH } from './decider';
export * from './events';
export * from './plan';
export * from './queries';
export * from './scorer-definitions';
export { experimentSnapshot } from './snapshot';
