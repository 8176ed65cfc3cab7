import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AnswerOf, answerOf, type BodyOf, client } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import { webhookToasts } from '../strings';

export type Webhook = components['schemas']['Webhook'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type NewWebhook = AnswerOf<'/api/workspaces/{id}/webhooks', 'post'>;
export type WebhookInput = BodyOf<'/api/workspaces/{id}/webhooks', 'post'>;
export type RotatedSecret = AnswerOf<'/api/workspaces/{id}/webhooks/{hookId}/rotate-secret', 'post'>;

/** A list's items, whether the API answers the list itself or a page of it. */
const itemsOf = <T>(answer: T[] | { items: T[] }): T[] => (Array.isArray(answer) ? answer : answer.items);

const webhooksKey = (workspaceId: string) => ['/api/workspaces', workspaceId, 'webhooks'];
const deliveriesKey = (workspaceId: string, hookId: string) => [
  ...webhooksKey(workspaceId),
  hookId,
  'deliveries',
];

/** A workspace's webhooks (owners only). */
export function useWebhooks(workspaceId: string) {
  return useQuery({
    queryKey: webhooksKey(workspaceId),
    queryFn: async ({ signal }) =>
      itemsOf<Webhook>(
        answerOf(
          await client.GET('/api/workspaces/{id}/webhooks', {
            params: { path: { id: workspaceId } },
            signal,
          }),
        ),
      ),
    staleTime: 0,
  });
}

/**
 * A webhook's last deliveries, newest first: read again every 2 s while one is pending, so a test delivery
 * is seen delivered (or failed) without a reload.
 */
export function useWebhookDeliveries(workspaceId: string, hookId: string) {
  return useQuery({
    queryKey: deliveriesKey(workspaceId, hookId),
    queryFn: async ({ signal }) =>
      itemsOf<WebhookDelivery>(
        answerOf(
          await client.GET('/api/workspaces/{id}/webhooks/{hookId}/deliveries', {
            params: { path: { id: workspaceId, hookId } },
            signal,
          }),
        ),
      ),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 2_000 : false),
    staleTime: 0,
  });
}

export function useAddWebhook(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: WebhookInput) =>
      answerOf(
        await client.POST('/api/workspaces/{id}/webhooks', { params: { path: { id: workspaceId } }, body }),
      ),
    meta: { errorToast: { messageOr: webhookToasts.addFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(workspaceId) }),
  });
}

export function useDeleteWebhook(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hookId: string) =>
      answerOf(
        await client.DELETE('/api/workspaces/{id}/webhooks/{hookId}', {
          params: { path: { id: workspaceId, hookId } },
        }),
      ),
    meta: { errorToast: { messageOr: webhookToasts.deleteFailed } },
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey(workspaceId) }),
  });
}

export function useRotateSecret(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hookId: string) =>
      answerOf(
        await client.POST('/api/workspaces/{id}/webhooks/{hookId}/rotate-secret', {
          params: { path: { id: workspaceId, hookId } },
        }),
      ),
    meta: { errorToast: { messageOr: webhookToasts.rotateFailed } },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(workspaceId) }),
  });
}

export function useSendTestDelivery(workspaceId: string, hookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      answerOf(
        await client.POST('/api/workspaces/{id}/webhooks/{hookId}/test', {
          params: { path: { id: workspaceId, hookId } },
        }),
      ),
    meta: { errorToast: { messageOr: webhookToasts.testFailed } },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(workspaceId, hookId) }),
  });
}

export function useRetryDelivery(workspaceId: string, hookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      answerOf(
        await client.POST('/api/workspaces/{id}/webhooks/{hookId}/deliveries/{deliveryId}/retry', {
          params: { path: { id: workspaceId, hookId, deliveryId } },
        }),
      ),
    meta: { errorToast: { messageOr: webhookToasts.retryFailed } },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(workspaceId, hookId) }),
  });
}
