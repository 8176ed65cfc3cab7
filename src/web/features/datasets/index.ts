/** What other features use of the datasets feature: where a flow's datasets are, and adding a run to one. */
export { AddRunToDataset } from './components/add-run-to-dataset';
export { datasetsPath } from './components/datasets-page';
