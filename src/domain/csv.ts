/**
 * A text a spreadsheet would read as a formula (OWASP's CSV injection guidance): one beginning with = + - @,
 * a tab or a carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A field as CSV (RFC 4180) writes it: quoted when it holds a comma, a quote or a line break, its quotes
 * doubled. A text that would start a formula is prefixed with a single quote and quoted, so a spreadsheet
 * shows it as text (a person's name, an edited result, a model's output is anyone's text). Numbers are
 * written as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows as CSV text: fields joined by commas, each line ended by CRLF. */
export const csvText = (rows: readonly (readonly (string | number | null)[])[]): string =>
  rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
