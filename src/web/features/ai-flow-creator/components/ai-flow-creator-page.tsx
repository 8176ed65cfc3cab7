import { Sparkles } from 'lucide-react';
import { aiFlowCreator as t } from '../strings';
import { CreatorChat } from './creator-chat';
import { useAiFlowCreator } from './use-ai-flow-creator';
import { WorkflowPreview } from './workflow-preview';

/** The AI flow creator page: a chat with the AI on the left, the workflow it proposes on the right. */
export function AiFlowCreatorPage() {
  const { send, context, phase, pending, canSend, saving } = useAiFlowCreator();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8" data-testid="ai-flow-creator-page">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
          <Sparkles className="h-6 w-6 text-indigo-500" />
          {t.title}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <CreatorChat
          messages={context.messages}
          phase={phase}
          thinking={pending && !saving}
          canSend={canSend}
          onSend={(text) => send({ type: 'SEND', text })}
        />
        <WorkflowPreview
          phase={phase}
          improvement={context.improvement}
          proposal={context.proposal}
          pending={pending}
          saving={saving}
          onConfirm={() => send({ type: 'CONFIRM' })}
          onContinueEditing={() => send({ type: 'CONTINUE_EDITING' })}
          onCreateNew={() => send({ type: 'CREATE_NEW' })}
        />
      </div>
    </div>
  );
}
