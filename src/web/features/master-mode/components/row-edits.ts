import type { MasterStep } from '@/features/master-mode/api/get-master-session';

/** The fields of a row edited in place and saved on blur. */
export type EditableField = 'userInput' | 'systemPrompt';

/** Local edits by row id: what the user typed and has not seen saved yet. */
export type RowEdits = Readonly<Record<string, Partial<Record<EditableField, string>>>>;

/** The row as shown: local edits over the server's data. */
export function shownRow(row: MasterStep, edits: RowEdits): MasterStep {
  const edit = edits[row.id];
  return edit ? { ...row, ...edit } : row;
}

export function withEdit(edits: RowEdits, rowId: string, field: EditableField, value: string): RowEdits {
  return { ...edits, [rowId]: { ...edits[rowId], [field]: value } };
}

/**
 * Drops an edit once its value is saved; a newer value typed while the save travelled stays, so
 * nothing the user typed is hidden by an older answer.
 */
export function withoutSavedEdit(
  edits: RowEdits,
  rowId: string,
  field: EditableField,
  saved: string,
): RowEdits {
  const edit = edits[rowId];
  if (edit?.[field] !== saved) return edits;
  const { [field]: _, ...rest } = edit;
  const next = { ...edits };
  if (Object.keys(rest).length === 0) delete next[rowId];
  else next[rowId] = rest;
  return next;
}

/** Edits that differ from the server's row: the ones that still need a save. */
export function unsavedEdits(rows: readonly MasterStep[], edits: RowEdits) {
  const pending: Array<{ rowId: string; field: EditableField; value: string }> = [];
  for (const row of rows) {
    for (const [field, value] of Object.entries(edits[row.id] ?? {}) as Array<[EditableField, string]>) {
      if (value !== row[field]) pending.push({ rowId: row.id, field, value });
    }
  }
  return pending;
}
