export { flowAggregate } from './flow-aggregate';
export type { FlowsRepository, StepsToRun } from './flows-repository';
