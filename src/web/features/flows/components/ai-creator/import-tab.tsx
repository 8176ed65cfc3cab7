import { FileUp, Loader2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input, Textarea } from '@/components/ui/field';
import { aiCreator as t } from '@/features/flows/strings';
import type { AiCreatorPhase } from '../../../../../machines/ai-creator-dialog';

/** 'Import': a .json file (its text goes into the paste area) or pasted JSON, then import. */
export function ImportTab({
  text,
  phase,
  onTextChange,
  onImport,
}: {
  text: string;
  phase: AiCreatorPhase;
  onTextChange: (text: string) => void;
  onImport: () => void;
}) {
  const fileId = useId();
  const pasteId = useId();
  const creating = phase === 'creating';
  return (
    <div className="flex flex-col gap-4">
      <Field id={fileId} label={t.importFile}>
        <Input
          id={fileId}
          type="file"
          accept=".json,application/json"
          className="h-auto py-1.5 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-medium file:text-slate-800"
          onChange={async (event) => {
            const file = event.target.files?.[0];
            if (file) onTextChange(await file.text());
          }}
          data-testid="ai-creator-import-file"
        />
      </Field>
      <Field id={pasteId} label={t.importPaste}>
        <Textarea
          id={pasteId}
          value={text}
          onChange={(event) => onTextChange(event.target.value)}
          placeholder={t.importPlaceholder}
          className="min-h-40 font-mono text-xs"
          spellCheck={false}
          data-testid="ai-creator-import-text"
        />
      </Field>
      <Button
        onClick={onImport}
        disabled={creating || phase === 'generating'}
        className="self-end"
        data-testid="ai-creator-import"
      >
        {creating ? <Loader2 className="h-4 w-4 animate-spin" /> : <FileUp className="h-4 w-4" />}
        {creating ? t.creating : t.importButton}
      </Button>
    </div>
  );
}
