import { describe, expect, it } from 'vitest';
import type { MasterStep } from '../../../../domain/master-mode/master-session';
import { shownRow, unsavedEdits, withEdit, withoutSavedEdit } from './row-edits';

const row = (id: string, fields: Partial<MasterStep> = {}): MasterStep => ({
  id,
  sessionId: 's',
  order: 1,
  stepName: 'Step 1',
  userInput: 'server input',
  result: '',
  systemPrompt: 'server prompt',
  stepType: 'ai',
  isRequired: false,
  model: null,
  createdAt: '',
  updatedAt: '',
  ...fields,
});

describe('local edits of master mode rows', () => {
  it('shows what the user typed over the server’s data until it is saved', () => {
    const edits = withEdit({}, 'a', 'userInput', 'typed');
    expect(shownRow(row('a'), edits)).toMatchObject({ userInput: 'typed', systemPrompt: 'server prompt' });
    expect(shownRow(row('b'), edits).userInput).toBe('server input');
    const saved = withoutSavedEdit(edits, 'a', 'userInput', 'typed');
    expect(saved).toEqual({});
  });

  it('keeps a newer value typed while an older one was being saved', () => {
    const edits = withEdit(withEdit({}, 'a', 'userInput', 'newer'), 'a', 'systemPrompt', 'p');
    const after = withoutSavedEdit(edits, 'a', 'userInput', 'older');
    expect(after).toBe(edits);
    expect(withoutSavedEdit(edits, 'a', 'systemPrompt', 'p')).toEqual({ a: { userInput: 'newer' } });
  });

  it('lists only the edits that differ from the server', () => {
    const edits = withEdit(withEdit({}, 'a', 'userInput', 'server input'), 'b', 'systemPrompt', 'changed');
    expect(unsavedEdits([row('a'), row('b')], edits)).toEqual([
      { rowId: 'b', field: 'systemPrompt', value: 'changed' },
    ]);
  });
});
