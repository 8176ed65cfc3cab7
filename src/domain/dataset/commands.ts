import type { NewDatasetItem } from './events';

/**
 * Commands of a dataset's stream. Who may give them (whoever may read its flow reads it, whoever may change
 * its flow changes it) is the API's access rule; the rules here are the dataset's own: its sizes, and items
 * that are archived, never deleted.
 */
export type DatasetCommand =
  /** `datasetsOfFlow`: how many datasets the flow has already. */
  | {
      type: 'CreateDataset';
      data: {
        datasetId: string;
        flowId: string;
        workspaceId: string | null;
        name: string;
        datasetsOfFlow: number;
      };
    }
  | { type: 'RenameDataset'; data: { name: string } }
  | { type: 'AddDatasetItems'; data: { items: NewDatasetItem[] } }
  | { type: 'ArchiveDatasetItem'; data: { itemId: string } }
  | { type: 'RestoreDatasetItem'; data: { itemId: string } };

export interface DatasetContext {
  /** ISO time of the command. */
  now: string;
  /** Who gives the command. */
  userId: string;
  /** The stream's version the state reflects. */
  version: number;
}
