/**
 * The front door of the flows: what the other aggregates and the rest of src/api use of them (the aggregate
 * for the events tool, the flows repository, a flow as of a version). Another aggregate imports the flows from here and from nowhere
 * else in this folder.
 */
export { flowAggregate } from './flow-aggregate';
export type { FlowCommands } from './flow-commands';
export type { FlowsRepository, StepsToRun } from './flows-repository';
