/**
 * The front door of the datasets: what the other aggregates and the rest of src/api use of them (the
 * aggregate with its flow's holder, the repository, and the commands that read a dataset as of a version, as
 * an experiment pins it). Another aggregate imports the datasets from here and from nowhere else in this
 * folder.
 */
export { datasetAggregate, type FlowHolder, heldBy } from './dataset-aggregate';
export type { DatasetCommands, DatasetWithItems } from './dataset-commands';
export { DatasetsRepository } from './datasets-repository';
