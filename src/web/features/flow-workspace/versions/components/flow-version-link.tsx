import { GitCommitVertical } from 'lucide-react';
import { Link } from 'wouter';
import { flowVersions as t } from '@/features/flow-workspace/strings';

export const flowVersionsPath = (flowId: string, version?: number) =>
  version === undefined ? `/flows/${flowId}/versions` : `/flows/${flowId}/versions?version=${version}`;

/** 'Flow version N': the version of the flow an execution ran, opened on the Flow History screen. */
export function FlowVersionLink({ flowId, version }: { flowId: string; version: number }) {
  return (
    <Link
      href={flowVersionsPath(flowId, version)}
      title={t.flowVersionTitle(version)}
      className="inline-flex items-center gap-1 rounded-full bg-violet-50 px-2 py-0.5 text-xs font-medium text-violet-700 ring-1 ring-inset ring-violet-200 hover:bg-violet-100 hover:underline"
      data-testid="flow-version-link"
      data-version={version}
    >
      <GitCommitVertical className="h-3 w-3" />
      {t.flowVersion(version)}
    </Link>
  );
}
