import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { useToast } from '@/components/ui/toast';
import type { WorkflowProposal } from '@/features/ai-flow-creator/api/propose-workflow';
import { createFlowFromJson } from '@/lib/flows-query';
import { toasts } from '@/lib/strings';
import {
  aiFlowCreatorMachine,
  type CreatorTexts,
  canSend,
  isPending,
  phaseOf,
  type SavedFlow,
} from '../../../../machines/ai-flow-creator';
import { improveDescription } from '../api/improve-description';
import { proposeWorkflow } from '../api/propose-workflow';
import { aiFlowCreator as t } from '../strings';

const texts: CreatorTexts = {
  welcome: t.welcome,
  improvement: t.improvement,
  proposal: (proposal) => t.proposal(proposal.name, proposal.steps.length),
  askWhatToChange: t.askWhatToChange,
  saved: t.saved,
};

const now = () => new Date().toISOString();

/** The creator's machine with its three calls, and a toast for each outcome. */
export function useAiFlowCreator() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [machine] = useState(() =>
    aiFlowCreatorMachine.provide({
      actors: {
        improve: fromPromise<string, { description: string }>(({ input }) =>
          improveDescription(input.description),
        ),
        propose: fromPromise<WorkflowProposal, { conversationHistory: string }>(({ input }) =>
          proposeWorkflow(input.conversationHistory),
        ),
        save: fromPromise<SavedFlow, { proposal: WorkflowProposal }>(async ({ input }) => {
          const flow = await createFlowFromJson(queryClient, input.proposal, 'flow-creator');
          return { id: flow.id, name: flow.name };
        }),
      },
    }),
  );
  const [snapshot, send, creator] = useMachine(machine, { input: { texts, now } });

  useEffect(() => {
    const subscription = creator.on('*', (event) => {
      switch (event.type) {
        case 'improveFailed':
          return toast({ title: toasts.error, description: t.improveFailed, variant: 'destructive' });
        case 'proposalFailed':
          return toast({ title: toasts.error, description: t.proposalFailed, variant: 'destructive' });
        case 'saveFailed':
          return toast({ title: toasts.error, description: t.saveFailed, variant: 'destructive' });
        case 'saved':
          return toast({ title: toasts.success, description: t.savedToast, variant: 'success' });
      }
    });
    return () => subscription.unsubscribe();
  }, [creator, toast]);

  return {
    send,
    context: snapshot.context,
    phase: phaseOf(snapshot),
    pending: isPending(snapshot),
    canSend: canSend(snapshot),
    saving: snapshot.matches({ proposal: 'saving' }),
  };
}
