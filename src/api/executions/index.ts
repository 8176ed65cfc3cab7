/**
 * The front door of the executions: what the other aggregates and the rest of src/api use of them (the
 * aggregate for the events tool, an execution's answer, the stream a reader may read, the run registry).
 * Another aggregate imports the executions from here and from nowhere else in this folder.
 */
export { executionAggregate } from './execution-aggregate';
export { answerOf } from './execution-answer';
export type { ExecutionCommands, LoadedExecution } from './execution-commands';
export { readableExecutionStream } from './history-routes';
export type { RunRegistry } from './run-registry';
