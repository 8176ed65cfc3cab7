import { describe, expect, it } from 'vitest';
import { flowsList } from '../../../lib/strings';
import { flowStatusBadge } from './flow-status';

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
