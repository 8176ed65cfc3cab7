export { executionAggregate } from './execution-aggregate';
export { answerOf } from './execution-answer';
export type { ExecutionCommands } from './execution-commands';
export { readableExecutionStream } from './history-routes';
export type { RunRegistry } from './run-registry';
