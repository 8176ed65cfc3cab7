import { Link } from 'wouter';
import { useExperiments } from '../api/experiments';
import { latestExperiments as t } from '../strings';
import { latestPerVersion, statusOf } from './experiment-list';
import { experimentPath } from './paths';
import { StatusBadge } from './status-badge';

/** How many versions the flow's screen names: the newest ones; the experiments page lists them all. */
const SHOWN_VERSIONS = 3;

/** On the flow's screen: the latest experiment of each of its newest versions, each a link to it. */
export function LatestExperiments({ flowId }: { flowId: string }) {
  const list = useExperiments(flowId);
  const latest = latestPerVersion(list.data ?? []).slice(0, SHOWN_VERSIONS);
  if (latest.length === 0) return null;
  return (
    <ul
      className="flex flex-wrap items-center gap-2 text-xs"
      aria-label={t.label}
      data-testid="latest-experiments-of-flow"
    >
      {latest.map((experiment) => (
        <li key={experiment.id}>
          <Link
            href={experimentPath(experiment.id)}
            className="inline-flex items-center gap-1 whitespace-nowrap rounded-md border border-slate-200 bg-white px-1.5 py-0.5 text-slate-700 hover:bg-slate-50"
            title={t.title(experiment.flowVersion, experiment.runsFinished, experiment.runsTotal)}
            data-testid="latest-experiment-of-version"
          >
            {t.version(experiment.flowVersion)}
            <StatusBadge status={statusOf(experiment)} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
