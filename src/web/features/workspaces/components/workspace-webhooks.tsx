import { KeyRound, Plus, RotateCw, Send, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, Input } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import type { components } from '@/lib/api-schema';
import { formatDateTime } from '@/lib/format-date';
import { toasts as common } from '@/lib/strings';
import { useOneAtATime } from '@/lib/use-one-at-a-time';
import type { UserWorkspace } from '@/lib/workspace-roles';
import { WEBHOOK_EVENT_TYPES } from '../../../../domain/webhook-event-types';
import {
  useAddWebhook,
  useDeleteWebhook,
  useRetryDelivery,
  useRotateSecret,
  useSendTestDelivery,
  useWebhookDeliveries,
  useWebhooks,
  type Webhook,
  type WebhookDelivery,
} from '../api/webhooks';
import { webhooks as t } from '../strings';

type EventType = Exclude<components['schemas']['WebhookEventType'], '*'>;

/** The event types an owner picks from, in the order the checkboxes show them. */
const EVENT_TYPES = WEBHOOK_EVENT_TYPES satisfies readonly EventType[];

const eventName = (type: string) => t.eventNames[type] ?? type;

/** A secret shown once, to copy: the new webhook's, or a rotated one's. */
function SecretOnce({ secret, text, onHide }: { secret: string; text: string; onHide: () => void }) {
  const secretId = useId();
  return (
    <div className="mt-4 rounded-lg bg-indigo-50 p-4" data-testid="webhook-secret">
      <label htmlFor={secretId} className="text-sm font-medium text-slate-800">
        {t.secretTitle}
      </label>
      <p className="mt-1 text-xs text-slate-600">{text}</p>
      <div className="mt-2 flex gap-2">
        <Input
          id={secretId}
          readOnly
          value={secret}
          className="font-mono"
          onFocus={(event) => event.currentTarget.select()}
          data-testid="webhook-secret-value"
        />
        <CopyButton
          text={secret}
          copyLabel={t.copy}
          copiedLabel={t.copied}
          failedTitle={t.copyFailed}
          showLabel
          variant="outline"
          testId="webhook-secret-copy"
        />
      </div>
      <Button variant="ghost" size="sm" className="mt-2" onClick={onHide} data-testid="webhook-secret-hide">
        {t.hide}
      </Button>
    </div>
  );
}

function AddWebhookForm({ workspaceId }: { workspaceId: string }) {
  const add = useAddWebhook(workspaceId);
  const send = useOneAtATime(add);
  const toast = useToast();
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(false);
  const [picked, setPicked] = useState<EventType[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const urlId = useId();
  const boxId = useId();
  const urlValid = /^https?:\/\/\S+$/i.test(url.trim());
  const eventsValid = all || picked.length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!urlValid || !eventsValid) return;
    send(
      { url: url.trim(), events: all ? ['*'] : picked },
      {
        onSuccess: (made) => {
          setSecret(made.secret);
          setUrl('');
          setPicked([]);
          setAll(false);
          toast({ title: common.success, description: t.added, variant: 'success' });
        },
      },
    );
  };

  return (
    <Card className="p-5" data-testid="webhook-add-form">
      <h2 className="text-lg font-semibold text-slate-900">{t.addTitle}</h2>
      <p className="mt-1 text-sm text-slate-600">{t.text}</p>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
        <Field id={urlId} label={t.url}>
          <Input
            id={urlId}
            type="url"
            autoComplete="off"
            placeholder={t.urlPlaceholder}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-invalid={url !== '' && !urlValid ? true : undefined}
            data-testid="webhook-url"
          />
        </Field>
        {url !== '' && !urlValid ? <p className="text-sm text-red-600">{t.urlInvalid}</p> : null}
        <fieldset className="flex flex-col gap-2" data-testid="webhook-events">
          <legend className="mb-1 text-sm font-medium text-slate-800">{t.events}</legend>
          <div className="flex items-center gap-2">
            <Checkbox
              id={`${boxId}-all`}
              checked={all}
              onCheckedChange={(next) => setAll(next === true)}
              data-testid="webhook-event-all"
            />
            <label htmlFor={`${boxId}-all`} className="text-sm text-slate-800">
              {t.allEvents}
            </label>
          </div>
          <ul className="grid gap-2 sm:grid-cols-2">
            {EVENT_TYPES.map((type) => {
              const id = `${boxId}-${type}`;
              return (
                <li key={type} className="flex items-center gap-2">
                  <Checkbox
                    id={id}
                    checked={all || picked.includes(type)}
                    disabled={all}
                    onCheckedChange={(next) =>
                      setPicked((now) =>
                        next === true ? [...now, type] : now.filter((candidate) => candidate !== type),
                      )
                    }
                    data-testid={`webhook-event-${type}`}
                  />
                  <label htmlFor={id} className="min-w-0 text-sm text-slate-800">
                    {eventName(type)} <span className="font-mono text-xs text-slate-500">{type}</span>
                  </label>
                </li>
              );
            })}
          </ul>
          {!eventsValid ? <p className="text-xs text-slate-500">{t.eventsHint}</p> : null}
        </fieldset>
        <div>
          <Button
            type="submit"
            disabled={add.isPending || !urlValid || !eventsValid}
            disabledReason={(!urlValid && t.urlInvalid) || (!eventsValid && t.eventsHint)}
            data-testid="webhook-add"
          >
            <Plus className="h-4 w-4" />
            {add.isPending ? t.adding : t.add}
          </Button>
        </div>
      </form>
      {secret ? <SecretOnce secret={secret} text={t.secretText} onHide={() => setSecret(null)} /> : null}
    </Card>
  );
}

/** How a delivery stands, in words: delivered, failed with the receiver's status, or pending. */
function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  const tone = delivery.status === 'delivered' ? 'green' : delivery.status === 'failed' ? 'red' : 'amber';
  const label =
    delivery.status === 'failed'
      ? t.failedWith(delivery.lastStatusCode)
      : delivery.status === 'pending'
        ? t.pendingWith(delivery.lastStatusCode)
        : `${t.statuses.delivered}${delivery.lastStatusCode ? ` (HTTP ${delivery.lastStatusCode})` : ''}`;
  return (
    <Badge
      tone={tone}
      title={delivery.lastError ?? undefined}
      data-testid="webhook-delivery-status"
      data-status={delivery.status}
    >
      {label}
    </Badge>
  );
}

function Deliveries({ workspaceId, hookId }: { workspaceId: string; hookId: string }) {
  const { data, isLoading, error } = useWebhookDeliveries(workspaceId, hookId);
  const retry = useRetryDelivery(workspaceId, hookId);
  const toast = useToast();

  if (isLoading) return <Skeleton className="mt-3 h-12 w-full" />;
  if (error) return <p className="mt-3 text-sm text-red-600">{error.message}</p>;
  if (!data || data.length === 0)
    return (
      <p className="mt-3 text-sm text-slate-500" data-testid="webhook-deliveries-empty">
        {t.noDeliveries}
      </p>
    );
  return (
    <div className="relative mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="webhook-deliveries">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="pb-2 pr-3 font-medium">{t.type}</th>
            <th className="pb-2 pr-3 font-medium">{t.status}</th>
            <th className="hidden pb-2 pr-3 font-medium sm:table-cell">{t.attempts}</th>
            <th className="hidden pb-2 pr-3 font-medium sm:table-cell">{t.at}</th>
            <th className="pb-2 text-right font-medium">
              <span className="sr-only">{t.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((delivery) => (
            <tr
              key={delivery.id}
              className="border-t border-slate-100"
              data-testid="webhook-delivery"
              data-delivery-id={delivery.id}
            >
              <td className="py-2 pr-3">
                <span className="text-slate-900">{eventName(delivery.type)}</span>
                <span className="block font-mono text-xs text-slate-500">{delivery.type}</span>
              </td>
              <td className="py-2 pr-3">
                <DeliveryStatus delivery={delivery} />
                {delivery.lastError && delivery.status !== 'delivered' ? (
                  <span
                    className="mt-1 block max-w-xs truncate text-xs text-slate-500"
                    title={delivery.lastError}
                  >
                    {delivery.lastError}
                  </span>
                ) : null}
              </td>
              <td className="hidden py-2 pr-3 text-slate-600 sm:table-cell">{delivery.attempts}</td>
              <td className="hidden py-2 pr-3 text-slate-600 sm:table-cell">
                {formatDateTime(delivery.deliveredAt ?? delivery.createdAt)}
              </td>
              <td className="py-2 text-right">
                {delivery.status === 'failed' ? (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={retry.isPending}
                    onClick={() =>
                      retry.mutate(delivery.id, {
                        onSuccess: () =>
                          toast({ title: common.success, description: t.retried, variant: 'success' }),
                      })
                    }
                    data-testid="webhook-delivery-retry"
                  >
                    <RotateCw className="h-4 w-4" />
                    {t.retry}
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WebhookCard({ hook, workspaceId }: { hook: Webhook; workspaceId: string }) {
  const [open, setOpen] = useState(false);
  const [rotated, setRotated] = useState<{ secret: string; until: string } | null>(null);
  const test = useSendTestDelivery(workspaceId, hook.id);
  const rotate = useRotateSecret(workspaceId);
  const remove = useDeleteWebhook(workspaceId);
  const confirm = useConfirm();
  const toast = useToast();

  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: () => {
        setOpen(true);
        toast({ title: common.success, description: t.testSent, variant: 'success' });
      },
    });
  const rotateSecret = async () => {
    if (!(await confirm(t.rotateConfirm, { confirmLabel: t.rotateLabel, destructive: false }))) return;
    rotate.mutate(hook.id, {
      onSuccess: (answer) =>
        setRotated({ secret: answer.secret, until: formatDateTime(answer.previousSecretExpiresAt ?? '') }),
    });
  };
  const deleteHook = async () => {
    if (!(await confirm(t.deleteConfirm(hook.url), { confirmLabel: t.deleteLabel }))) return;
    remove.mutate(hook.id, {
      onSuccess: () => toast({ title: common.success, description: t.deleted, variant: 'success' }),
    });
  };

  return (
    <li
      className="rounded-lg border border-slate-200 p-4"
      data-testid="webhook-row"
      data-webhook-id={hook.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm text-slate-900" data-testid="webhook-url-shown">
            {hook.url}
          </p>
          <div className="mt-1 flex flex-wrap gap-1" data-testid="webhook-events-shown">
            {hook.events.map((type) => (
              <Badge key={type} tone="indigo" title={type}>
                {type === '*' ? t.allEvents : eventName(type)}
              </Badge>
            ))}
          </div>
          <p className="mt-1 text-xs text-slate-500">
            {t.createdAt(formatDateTime(hook.createdAt))}
            {hook.previousSecretExpiresAt && Date.parse(hook.previousSecretExpiresAt) > Date.now()
              ? ` · ${t.previousSecret(formatDateTime(hook.previousSecretExpiresAt))}`
              : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={sendTest}
            disabled={test.isPending}
            data-testid="webhook-test"
          >
            <Send className="h-4 w-4" />
            {test.isPending ? t.testing : t.test}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={rotateSecret}
            disabled={rotate.isPending}
            data-testid="webhook-rotate"
          >
            <KeyRound className="h-4 w-4" />
            {t.rotate}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={deleteHook}
            disabled={remove.isPending}
            aria-label={t.deleteOf(hook.url)}
            data-testid="webhook-delete"
          >
            <Trash2 className="h-4 w-4" />
            <span className="sr-only sm:not-sr-only">{t.delete}</span>
          </Button>
        </div>
      </div>
      {rotated ? (
        <SecretOnce
          secret={rotated.secret}
          text={t.rotatedText(rotated.until)}
          onHide={() => setRotated(null)}
        />
      ) : null}
      <Button
        variant="ghost"
        size="sm"
        className="mt-2"
        onClick={() => setOpen((now) => !now)}
        aria-expanded={open}
        data-testid="webhook-deliveries-toggle"
      >
        {open ? t.hideDeliveries : t.showDeliveries}
      </Button>
      {open ? <Deliveries workspaceId={workspaceId} hookId={hook.id} /> : null}
    </li>
  );
}

/**
 * A workspace's webhooks, for its owners: add one (its secret shown once), send a test delivery, see each
 * one's deliveries and retry a failed one now, rotate its secret, delete it.
 */
export function WorkspaceWebhooks({ workspace }: { workspace: UserWorkspace }) {
  const { data, isLoading, error } = useWebhooks(workspace.id);
  return (
    <div className="flex flex-col gap-4" data-testid="workspace-webhooks">
      <AddWebhookForm workspaceId={workspace.id} />
      <Card className="p-5">
        <h2 className="text-lg font-semibold text-slate-900">{t.title}</h2>
        {isLoading ? (
          <Skeleton className="mt-3 h-20 w-full" />
        ) : error ? (
          <p className="mt-3 text-sm text-red-600">{error.message}</p>
        ) : data && data.length > 0 ? (
          <ul className="mt-3 flex flex-col gap-3" data-testid="webhook-list">
            {data.map((hook) => (
              <WebhookCard key={hook.id} hook={hook} workspaceId={workspace.id} />
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-slate-500" data-testid="webhooks-empty">
            {t.empty}
          </p>
        )}
      </Card>
    </div>
  );
}
