import { Ticket } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { DeleteIconButton } from '@/components/ui/delete-icon-button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format-date';
import type { ApiToken } from '../api/api-tokens';
import { apiTokens as t } from '../strings';

const shown = (when: string) => formatDateTime(when);

function whereOf(token: ApiToken) {
  if (token.workspaceId === null) return t.personal;
  return token.workspaceName === null ? t.workspaceGone : t.workspace(token.workspaceName);
}

export function ApiTokenList({
  tokens,
  isLoading,
  revoking,
  onRevoke,
}: {
  tokens: ApiToken[] | undefined;
  isLoading: boolean;
  revoking: boolean;
  onRevoke: (token: ApiToken) => void;
}) {
  return (
    <Card data-testid="api-token-list">
      <CardHeader>
        {/* The page's second level under its h1 (a card's title is an h3). */}
        <h2 className="text-lg font-semibold text-slate-900">{t.listTitle}</h2>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex flex-col gap-3">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : !tokens || tokens.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500" data-testid="api-tokens-empty">
            {t.empty}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100">
            {tokens.map((token) => {
              const expired = Date.parse(token.expiresAt) <= Date.now();
              return (
                <li
                  key={token.id}
                  className="flex items-start justify-between gap-4 py-3"
                  data-testid="api-token-item"
                >
                  <div className="flex min-w-0 gap-3">
                    <Ticket className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600" />
                    <div className="min-w-0">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="truncate font-medium text-slate-900" data-testid="api-token-name">
                          {token.name}
                        </span>
                        <Badge tone="indigo" data-testid="api-token-where">
                          {whereOf(token)}
                        </Badge>
                        {expired ? <Badge tone="red">{t.expired}</Badge> : null}
                      </div>
                      <div className="mt-1 flex flex-wrap gap-1" data-testid="api-token-scopes">
                        {token.scopes.map((scope) => (
                          <Badge key={scope} tone="outline">
                            {t.scope(scope)}
                          </Badge>
                        ))}
                      </div>
                      <p className="mt-1 text-xs text-slate-500">
                        {t.createdAt(shown(token.createdAt))}
                        {' · '}
                        {t.expiresAt(shown(token.expiresAt))}
                        {' · '}
                        {token.lastUsedAt
                          ? t.lastUsed(shown(token.lastUsedAt), token.lastUsedFrom)
                          : t.neverUsed}
                      </p>
                    </div>
                  </div>
                  <DeleteIconButton
                    label={t.revoke}
                    disabled={revoking}
                    onClick={() => onRevoke(token)}
                    testId="revoke-api-token"
                  />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
