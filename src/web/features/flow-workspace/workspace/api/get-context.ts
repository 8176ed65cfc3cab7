import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConversationContextView } from '../../../../../domain/conversation-context';

/** Every run and every deleted result changes the context, so it is read afresh each time it is shown. */
export const contextQueryOptions = (flowId: string) =>
  queryOptions<ConversationContextView>({ queryKey: ['/api/flows', flowId, 'context'], staleTime: 0 });

export function useConversationContext(flowId: string, enabled: boolean) {
  return useQuery({ ...contextQueryOptions(flowId), enabled });
}
