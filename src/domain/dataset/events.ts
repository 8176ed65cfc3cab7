/** The stream of a dataset: `dataset-<datasetId>`. Its version (stream position) is the dataset's version. */
export const DATASET_STREAM_PREFIX = 'dataset-';
export const datasetStreamId = (datasetId: string) => `${DATASET_STREAM_PREFIX}${datasetId}`;

/** Where an item came from: typed in, a CSV file's row, or a run of the flow captured. */
export const DATASET_ITEM_SOURCES = ['manual', 'csv', 'execution'] as const;
export type DatasetItemSource = (typeof DATASET_ITEM_SOURCES)[number];

/**
 * One case of a dataset. `inputs`: the user input of each step that takes one, by step id; `expected`: the
 * text a step should answer, by step id. Keys are stored as given (a step deleted later keeps its key).
 */
export interface NewDatasetItem {
  itemId: string;
  inputs: Record<string, string>;
  expected: Record<string, string>;
  tags: string[];
  source: DatasetItemSource;
  /** The execution an item was captured from (source `execution` only). */
  sourceExecutionId?: string;
}

export type DatasetEvent =
  /** The dataset is made for a flow; `workspaceId`: where the flow was then (null: its owner's own). */
  | {
      type: 'DatasetCreated';
      data: {
        datasetId: string;
        flowId: string;
        workspaceId: string | null;
        name: string;
        createdBy: string;
        at: string;
      };
    }
  | { type: 'DatasetRenamed'; data: { before: string; after: string; by: string; at: string } }
  /** Items added at the end, in their order. */
  | { type: 'DatasetItemsAdded'; data: { items: NewDatasetItem[]; by: string; at: string } }
  /** The item is left out of runs from this version on; it is kept, and can be restored. */
  | { type: 'DatasetItemArchived'; data: { itemId: string; by: string; at: string } }
  | { type: 'DatasetItemRestored'; data: { itemId: string; by: string; at: string } };

/**
 * What a command is decided on: the items by id with whether each is archived, and their size so far. The
 * items' texts are not kept here (a dataset's texts may reach DATASET_MAX_TOTAL_CHARS): the read model and
 * `datasetView` hold them.
 */
export interface DatasetState {
  /** null: no dataset on this stream yet. */
  datasetId: string | null;
  flowId: string | null;
  workspaceId: string | null;
  name: string;
  createdBy: string | null;
  /** The items' ids, oldest first, and whether each is archived. */
  items: { itemId: string; archived: boolean }[];
  /** The characters of every input and expected text of the items. */
  totalChars: number;
  createdAt: string | null;
  updatedAt: string | null;
}

/** An item as a version of the dataset holds it. */
export interface DatasetItem extends NewDatasetItem {
  archived: boolean;
  addedBy: string;
  addedAt: string;
  /** The dataset version that added it. */
  addedInVersion: number;
}

/** The dataset as it stood at a version: what an experiment pins. */
export interface DatasetView {
  datasetId: string;
  flowId: string;
  workspaceId: string | null;
  name: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  items: DatasetItem[];
}
