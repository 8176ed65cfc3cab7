/** The three badges a flow's status shows as: any status but active or draft reads Inactive. */
export type FlowStatusBadge = 'active' | 'draft' | 'inactive';

export const flowStatusBadge = (status: string): FlowStatusBadge =>
  status === 'active' || status === 'draft' ? status : 'inactive';

export const flowStatusTone = { active: 'green', draft: 'amber', inactive: 'neutral' } as const;
