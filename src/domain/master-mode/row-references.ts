/**
 * `[[row-N]]` in a master mode row stands for the result of row N, N being the row's number as the
 * screen shows it (001 is row 1): the position in the session's order, not the stored order value,
 * which may have gaps after deletions.
 */

/** `[[row-2]]`, `[[row_2]]`, `[[ Row-002 ]]`. */
export const ROW_REFERENCE = /\[\[\s*row[-_](\d{1,6})\s*\]\]/gi;

/** The number a row is shown with: three digits, more when there are more rows. */
export const rowNumber = (position: number) => String(position).padStart(3, '0');

export interface ResolvedText {
  text: string;
  /** Row number -> the result put in its place, for every reference that named a row. */
  references: Record<string, string>;
  /** Row numbers referenced that the session does not have; those references stay as written. */
  unresolved: number[];
}

/** The row numbers a text references, each once, in order of first appearance. */
export function referencedRows(text: string): number[] {
  const rows: number[] = [];
  for (const match of text.matchAll(ROW_REFERENCE)) {
    const row = Number(match[1]);
    if (!rows.includes(row)) rows.push(row);
  }
  return rows;
}

/** How long `text` is once every reference is resolved: counted, nothing is built. */
export function resolvedSize(text: string, results: readonly string[]): number {
  let size = text.length;
  for (const match of text.matchAll(ROW_REFERENCE)) {
    const row = Number(match[1]);
    const result = row >= 1 ? results[row - 1] : undefined;
    if (result !== undefined) size += result.length - match[0].length;
  }
  return size;
}

/** Puts each referenced row's result in place of its `[[row-N]]`; `results[0]` is row 1's. */
export function resolveRowReferences(text: string, results: readonly string[]): ResolvedText {
  const references: Record<string, string> = {};
  const unresolved: number[] = [];
  const resolved = text.replace(ROW_REFERENCE, (whole, digits: string) => {
    const row = Number(digits);
    const result = row >= 1 ? results[row - 1] : undefined;
    if (result === undefined) {
      if (!unresolved.includes(row)) unresolved.push(row);
      return whole;
    }
    references[String(row)] = result;
    return result;
  });
  return { text: resolved, references, unresolved };
}

/** Any `[[...]]` reference, whatever it names. */
const ANY_REFERENCE = /\[\[([^[\]]+)\]\]/g;
const STEP_ORDER = /^step[-_](\d{1,6})$/i;

/** A step of a flow as it became a row of a session. */
export interface StepAsRow {
  order: number;
  name: string;
  /** The row's number (1 for the first row). */
  row: number;
}

/**
 * A flow step's prompt as a row's: every reference that names a step, as `[[step-N]]` (N a step order,
 * `step_N` too) or by the step's name (any case), becomes `[[row-M]]`, M being the row that step became,
 * so a session made from a flow chains its rows as the flow chains its steps. A reference that names no
 * step stays as written, and the row lists it as resolving to nothing.
 */
export function stepReferencesAsRows(prompt: string, steps: readonly StepAsRow[]): string {
  return prompt.replace(ANY_REFERENCE, (whole, label: string) => {
    const key = label.trim().toLowerCase();
    const byOrder = STEP_ORDER.exec(key);
    const step = byOrder
      ? steps.find((s) => s.order === Number(byOrder[1]))
      : steps.find((s) => s.name.trim().toLowerCase() === key);
    return step ? `[[row-${step.row}]]` : whole;
  });
}

/**
 * The references of a row's text that resolve to nothing in a session of `rowCount` rows: a row it does
 * not have, or a name that is not a row at all. Each once, as written, in order of first appearance.
 */
export function unresolvedReferences(text: string, rowCount: number): string[] {
  const unresolved: string[] = [];
  for (const match of text.matchAll(ANY_REFERENCE)) {
    const row = /^\s*row[-_](\d{1,6})\s*$/i.exec(match[1]!);
    const resolves = row !== null && Number(row[1]) >= 1 && Number(row[1]) <= rowCount;
    if (!resolves && !unresolved.includes(match[0])) unresolved.push(match[0]);
  }
  return unresolved;
}
