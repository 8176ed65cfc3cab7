export { experimentAggregate, experimentHeldBy } from './experiment-aggregate';
export { ExperimentCommands } from './experiment-commands';
export { DRIVE_QUEUE, ExperimentRunner } from './experiment-runner';
export { ExperimentsRepository } from './experiments-repository';
