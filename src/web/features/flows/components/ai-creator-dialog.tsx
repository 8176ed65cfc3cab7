import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { toasts } from '@/lib/strings';
import { aiCreator as t } from '../strings';
import { GenerateTab } from './ai-creator/generate-tab';
import { ImportTab } from './ai-creator/import-tab';
import { TemplateTab } from './ai-creator/template-tab';
import { useAiCreatorDialog } from './ai-creator/use-ai-creator-dialog';

const TABS = ['generate', 'template', 'import'] as const;
type Tab = (typeof TABS)[number];

const triggerClasses =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 transition-colors data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm cursor-pointer';

/**
 * The AI Workflow Creator: a workflow generated from a description, a built-in template or an
 * imported JSON becomes a flow. Its state lives here rather than in the dialog's content, so a request
 * still on its way when the dialog closes ends as usual, and the fields are kept until a flow is created.
 */
export function AiCreatorDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [tab, setTab] = useState<Tab>('generate');
  const { send, context, phase } = useAiCreatorDialog(() => onOpenChange(false));
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t.title}
        description={t.description}
        closeLabel={toasts.close}
        className="max-h-[90vh] overflow-y-auto sm:max-w-3xl"
        data-testid="ai-creator-dialog"
      >
        <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Tab)}>
          <Tabs.List className="inline-flex rounded-lg bg-slate-100 p-1" aria-label={t.title}>
            {TABS.map((value) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className={triggerClasses}
                data-testid={`ai-creator-tab-${value}`}
              >
                {t.tabs[value]}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <div className="mt-4">
            <Tabs.Content value="generate">
              <GenerateTab
                description={context.description}
                workflow={context.workflow}
                phase={phase}
                onDescriptionChange={(description) => send({ type: 'DESCRIPTION_CHANGED', description })}
                onGenerate={() => send({ type: 'GENERATE' })}
                onCreate={() => send({ type: 'CREATE' })}
              />
            </Tabs.Content>
            <Tabs.Content value="template">
              <TemplateTab
                templateId={context.templateId}
                phase={phase}
                onTemplateChange={(templateId) => send({ type: 'TEMPLATE_CHOSEN', templateId })}
                onCreate={() => send({ type: 'CREATE_FROM_TEMPLATE' })}
              />
            </Tabs.Content>
            <Tabs.Content value="import">
              <ImportTab
                text={context.importText}
                phase={phase}
                onTextChange={(text) => send({ type: 'IMPORT_TEXT_CHANGED', text })}
                onImport={() => send({ type: 'IMPORT' })}
              />
            </Tabs.Content>
          </div>
        </Tabs.Root>
      </DialogContent>
    </Dialog>
  );
}
