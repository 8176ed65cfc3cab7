import { ExternalLink } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { apiKeys as t } from '../strings';

/** The five steps to a Gemini key, the first linking to the provider's key page. */
export function ApiKeyGuide() {
  return (
    <Card data-testid="api-key-guide">
      <CardHeader>
        <CardTitle>{t.guideTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col gap-3">
          {t.guideSteps.map((step, i) => (
            <li key={step} className="flex gap-3 text-sm text-slate-700">
              <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700">
                {i + 1}
              </span>
              <span className="pt-0.5">
                {step}
                {i === 0 ? (
                  <>
                    {' '}
                    <a
                      href={t.guideUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex items-center gap-1 font-medium text-indigo-600 hover:underline"
                      data-testid="api-key-guide-link"
                    >
                      {t.guideLink}
                      <ExternalLink className="h-3.5 w-3.5" />
                    </a>
                  </>
                ) : null}
              </span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
