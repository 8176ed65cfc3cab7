/** What other features use of the experiments feature: where a flow's experiments are, and the form preset. */
export { experimentsPath, runBothPath } from './components/paths';
