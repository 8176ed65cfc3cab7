import type { DatasetEvent, DatasetItem, DatasetView } from './events';

/** An event of a dataset's stream with its position there (the version it makes). */
export interface PositionedDatasetEvent {
  event: DatasetEvent;
  position: number;
}

/**
 * The dataset as its events up to `version` make it, texts and all (undefined: no dataset then): reading a
 * dataset "as of version v" folds the events at positions ≤ v and nothing after, so what an experiment
 * pinned never changes.
 */
export function datasetView(
  events: readonly PositionedDatasetEvent[],
  version = Number.POSITIVE_INFINITY,
): DatasetView | undefined {
  let view: DatasetView | undefined;
  for (const { event, position } of events) {
    if (position > version) break;
    if (event.type === 'DatasetCreated') {
      const { datasetId, flowId, workspaceId, name, createdBy, at } = event.data;
      view = {
        datasetId,
        flowId,
        workspaceId,
        name,
        createdBy,
        createdAt: at,
        updatedAt: at,
        version: position,
        items: [],
      };
      continue;
    }
    if (view === undefined) continue;
    view = { ...view, updatedAt: event.data.at, version: position };
    switch (event.type) {
      case 'DatasetRenamed':
        view.name = event.data.after;
        break;
      case 'DatasetItemsAdded': {
        const { by, at } = event.data;
        const added: DatasetItem[] = event.data.items.map((item) => ({
          ...item,
          archived: false,
          addedBy: by,
          addedAt: at,
          addedInVersion: position,
        }));
        view.items = [...view.items, ...added];
        break;
      }
      case 'DatasetItemArchived':
      case 'DatasetItemRestored': {
        const archived = event.type === 'DatasetItemArchived';
        view.items = view.items.map((item) =>
          item.itemId === event.data.itemId ? { ...item, archived } : item,
        );
        break;
      }
    }
  }
  return view;
}
