/**
 * The front door of master mode: what the rest of src/api uses of it (the aggregate for the events tool, the
 * service the crash sweep ends runs through). Another aggregate imports master mode from here and from
 * nowhere else in this folder.
 */
export { masterAggregate } from './master-aggregate';
export type { MasterModeService } from './master-mode-service';
