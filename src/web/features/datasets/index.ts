/**
 * What other features use of the datasets feature: where a flow's datasets are, adding a run to one, and the
 * flow's datasets (an experiment runs one).
 */
export { type DatasetItem, type ListedDataset, useDataset, useDatasets } from './api/datasets';
export { AddRunToDataset } from './components/add-run-to-dataset';
export { datasetPath, datasetsPath } from './components/datasets-page';
