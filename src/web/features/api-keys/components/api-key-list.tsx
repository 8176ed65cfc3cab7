import { KeyRound } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DeleteIconButton } from '@/components/ui/delete-icon-button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format-date';
import type { ApiKey } from '../api/get-api-keys';
import { apiKeys as t } from '../strings';

const shown = (when: string) => formatDateTime(when);

export function ApiKeyList({
  keys,
  isLoading,
  deleting,
  onDelete,
}: {
  keys: ApiKey[] | undefined;
  isLoading: boolean;
  deleting: boolean;
  onDelete: (key: ApiKey) => void;
}) {
  return (
    <Card data-testid="api-key-list">
      <CardHeader>
        <CardTitle>{t.listTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex flex-col gap-3">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : !keys || keys.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500" data-testid="api-keys-empty">
            {t.empty}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100">
            {keys.map((key) => (
              <li
                key={key.id}
                className="flex items-start justify-between gap-4 py-3"
                data-testid="api-key-item"
              >
                <div className="flex min-w-0 gap-3">
                  <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600" />
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="truncate font-medium text-slate-900">{key.keyName}</span>
                      <Badge tone="outline" data-testid="api-key-type">
                        {t.keyType(key.keyType)}
                      </Badge>
                      <Badge tone={key.isActive ? 'green' : 'neutral'}>
                        {key.isActive ? t.active : t.inactive}
                      </Badge>
                      {key.checkStatus === 'unchecked' ? (
                        <Badge tone="amber" title={t.uncheckedHint} data-testid="api-key-unchecked">
                          {t.unchecked}
                        </Badge>
                      ) : key.checkStatus === 'rejected' ? (
                        <Badge tone="red" title={t.rejectedHint} data-testid="api-key-rejected">
                          {t.rejected}
                        </Badge>
                      ) : null}
                    </div>
                    {key.baseUrl ? (
                      <p className="mt-1 truncate text-xs text-slate-600" data-testid="api-key-base-url">
                        {key.baseUrl}
                      </p>
                    ) : null}
                    <p className="mt-1 text-xs text-slate-500">
                      {t.createdAt(shown(key.createdAt))}
                      {' · '}
                      {key.lastUsed ? t.lastUsed(shown(key.lastUsed)) : t.neverUsed}
                    </p>
                  </div>
                </div>
                <DeleteIconButton
                  label={t.delete}
                  disabled={deleting}
                  onClick={() => onDelete(key)}
                  testId="delete-api-key"
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
