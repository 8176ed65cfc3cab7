import { describe, expect, it } from 'vitest';
import { flowStatusBadge } from './flow-status';
import { flowsList } from './strings';

const label = (status: string) => flowsList.statuses[flowStatusBadge(status)];

describe('flowStatusBadge', () => {
  it('reads active as Active and draft as Draft', () => {
    expect(label('active')).toBe('Active');
    expect(label('draft')).toBe('Draft');
  });

  it('reads any other status as Inactive', () => {
    for (const status of ['inactive', 'archived', '', 'Active', 'DRAFT'])
      expect(label(status)).toBe('Inactive');
  });
});
