import { ArrowLeft, Layers, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { itemsOf } from '@/lib/paged-list';
import { useCreateMasterSession } from '../api/create-master-session';
import { useFlowMasterSessions } from '../api/get-master-sessions';
import { masterMode as t } from '../strings';
import { MasterModeScreen } from './master-mode-screen';

/**
 * A flow's Master mode: the user's master session of that flow used last; a flow without one offers
 * to create '{flow name} Session' with one row per step.
 */
export function MasterModeOfFlow({
  flowId,
  flowName,
  onBack,
}: {
  flowId: string;
  flowName: string;
  onBack: () => void;
}) {
  const sessions = useFlowMasterSessions(flowId);
  const create = useCreateMasterSession();
  const [created, setCreated] = useState<string | null>(null);

  const sessionId = created ?? itemsOf(sessions.data)[0]?.id ?? null;
  if (sessionId) return <MasterModeScreen key={sessionId} sessionId={sessionId} onBack={onBack} />;
  if (sessions.isLoading) {
    return (
      <p className="py-16 text-center text-slate-500" data-testid="master-mode-loading">
        {t.loading}
      </p>
    );
  }
  return (
    <Card
      className="mx-auto mt-6 flex max-w-lg flex-col items-center gap-4 p-8 text-center"
      data-testid="master-mode-of-flow"
    >
      <Layers className="h-8 w-8 text-indigo-600" />
      <h1 className="text-xl font-semibold text-slate-900">{t.titleForFlow(flowName)}</h1>
      <p className="text-slate-700">{t.noSessionForFlow}</p>
      <div className="flex gap-2">
        <Button variant="outline" onClick={onBack}>
          <ArrowLeft className="h-4 w-4" />
          {t.back}
        </Button>
        <Button
          disabled={create.isPending}
          onClick={() =>
            create.mutate(
              { name: t.sessionNameFor(flowName), flowId },
              { onSuccess: (session) => setCreated(session.id) },
            )
          }
          data-testid="master-create-for-flow"
        >
          <Plus className="h-4 w-4" />
          {t.createForFlow(flowName)}
        </Button>
      </div>
    </Card>
  );
}
