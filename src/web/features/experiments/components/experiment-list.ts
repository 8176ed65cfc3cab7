import type { Experiment, ExperimentSummary } from '../api/experiments';
import { experimentPage } from '../strings';

/** An experiment's status from its summary: a stopped one stays stopped, even once its last runs ended. */
export const statusOf = (experiment: ExperimentSummary) =>
  experiment.stoppedAt !== null ? 'stopped' : experiment.completedAt !== null ? 'completed' : 'running';

/** Why the server stopped the experiment on its own, in the page's words; null when it did not. */
export const stopReasonText = ({ stopReason }: Pick<Experiment, 'stopReason'>): string | null =>
  stopReason === null ? null : experimentPage.stopReasons[stopReason];

/**
 * The experiments picked, in the order a comparison takes them: the flow's baseline first, then the oldest
 * first, so each later one is read against what came before.
 */
export function compareOrder(picked: readonly string[], experiments: readonly ExperimentSummary[]): string[] {
  return experiments
    .filter((experiment) => picked.includes(experiment.id))
    .sort(
      (a, b) =>
        Number(b.isBaseline) - Number(a.isBaseline) ||
        a.startedAt.localeCompare(b.startedAt) ||
        a.id.localeCompare(b.id),
    )
    .map((experiment) => experiment.id);
}

/** The newest experiment of each flow version, newest version first. */
export function latestPerVersion(experiments: readonly ExperimentSummary[]): ExperimentSummary[] {
  const seen = new Map<number, ExperimentSummary>();
  for (const experiment of experiments)
    if (!seen.has(experiment.flowVersion)) seen.set(experiment.flowVersion, experiment);
  return [...seen.values()].sort((a, b) => b.flowVersion - a.flowVersion);
}
