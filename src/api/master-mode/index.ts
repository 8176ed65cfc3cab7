export { masterAggregate } from './master-aggregate';
export type { MasterModeService } from './master-mode-service';
