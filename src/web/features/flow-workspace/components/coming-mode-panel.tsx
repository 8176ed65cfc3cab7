import { ArrowLeft, Construction } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { workspace as t } from '../../../lib/strings';

/** Chat and master modes come later; until then they say so and lead back to run mode. */
export function ComingModePanel({
  title,
  text,
  onBack,
  testId,
}: {
  title: string;
  text: string;
  onBack: () => void;
  testId: string;
}) {
  return (
    <Card className="mx-auto mt-6 max-w-2xl p-8" data-testid={testId}>
      <Button variant="ghost" size="sm" onClick={onBack} data-testid="back-to-run">
        <ArrowLeft className="h-4 w-4" />
        {t.backToRun}
      </Button>
      <div className="mt-6 flex items-start gap-3">
        <Construction className="mt-0.5 h-6 w-6 shrink-0 text-amber-500" />
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
          <p className="mt-1 text-slate-600">{text}</p>
        </div>
      </div>
    </Card>
  );
}
