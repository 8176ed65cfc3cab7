import type { BodyOf } from './api-client';

/** The three badges a flow's status shows as: any status but active or draft reads Inactive. */
export type FlowStatusBadge = 'active' | 'draft' | 'inactive';

export const flowStatusBadge = (status: string): FlowStatusBadge =>
  status === 'active' || status === 'draft' ? status : 'inactive';

export const flowStatusTone = { active: 'green', draft: 'amber', inactive: 'neutral' } as const;

/** The statuses a flow can be given (PUT /api/flows/{id}). */
export type SettableFlowStatus = NonNullable<BodyOf<'/api/flows/{id}', 'put'>['status']>;

/** A flow read with a status it cannot be given (the API answers any string) keeps it: none is sent. */
export const settableStatus = (status: string): SettableFlowStatus | undefined =>
  status === 'active' || status === 'draft' || status === 'inactive' ? status : undefined;
