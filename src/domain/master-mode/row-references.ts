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

const STEP_REFERENCE = /\[\[\s*step[-_](\d{1,6})\s*\]\]/gi;

/**
 * A flow step's prompt as a row's: `[[step-N]]` (N a step order) becomes `[[row-M]]`, M being the
 * row that step became, so a session made from a flow chains its rows as the flow chains its steps.
 * Other references stay as written.
 */
export function stepReferencesAsRows(prompt: string, rowOfOrder: ReadonlyMap<number, number>): string {
  return prompt.replace(STEP_REFERENCE, (whole, digits: string) => {
    const row = rowOfOrder.get(Number(digits));
    return row === undefined ? whole : `[[row-${row}]]`;
  });
}
