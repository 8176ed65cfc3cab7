/** What other features use of the experiments feature: where a flow's experiments are, and the form preset. */
export { LatestExperiments } from './components/latest-experiments';
export { experimentsPath, runBothPath } from './components/paths';
