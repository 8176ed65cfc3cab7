import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TemplateRecord } from '../../../../domain/workflow-recommendations';

export const templatesQueryOptions = queryOptions<TemplateRecord[]>({ queryKey: ['/api/templates'] });

export function useTemplates() {
  return useQuery(templatesQueryOptions);
}
