import { CsvError, parse } from 'csv-parse/sync';
import { ruleViolated } from './errors';

/**
 * A text a spreadsheet would read as a formula (OWASP's CSV injection guidance): one beginning with = + - @,
 * a tab or a carriage return; also with a NUL (OWASP ASVS 5.0, 1.2.10), and = + - @ after leading white
 * space, which a spreadsheet told to trim spaces on import removes before it reads the cell.
 */
const FORMULA_START = /^[\t\r\0]|^[\s\0]*[=+\-@]/;

/** Whether a spreadsheet would read the text as a formula: csvField writes it with a single quote before it. */
export const startsFormula = (text: string): boolean => FORMULA_START.test(text);

/**
 * A field as CSV (RFC 4180) writes it: quoted when it holds a comma, a quote or a line break, its quotes
 * doubled. A text that would start a formula is prefixed with a single quote and quoted, so a spreadsheet
 * shows it as text (a person's name, an edited result, a model's output is anyone's text). Numbers are
 * written as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (startsFormula(value)) return `"'${value.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows as CSV text: fields joined by commas, each line ended by CRLF. */
export const csvText = (rows: readonly (readonly (string | number | null)[])[]): string =>
  rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');

/** A CSV file's records, each with the line it starts on (1 is the first line). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** What csv-parse's refusals mean, in the words of the rest of the product. */
const REFUSALS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'dấu ngoặc kép mở nhưng không đóng',
  INVALID_OPENING_QUOTE: 'dấu ngoặc kép trong ô không có ngoặc kép (hãy đặt cả ô trong ngoặc kép)',
  CSV_INVALID_CLOSING_QUOTE:
    'có ký tự sau dấu ngoặc kép đóng (hãy đặt cả ô trong ngoặc kép, "" cho một dấu ")',
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'số cột khác dòng tiêu đề',
};

/**
 * The records of a CSV text, strictly as RFC 4180 writes them (csv-parse): fields separated by commas,
 * records by CRLF or LF, a field in double quotes may hold commas, line breaks and `""` for a quote. A quote
 * inside an unquoted field, text after a closing quote, a quote left open, or a record with another number of
 * fields than the first is refused (400) with the line it was found on. A byte order mark at the start is
 * skipped; blank lines are skipped.
 */
export function parseCsv(text: string): CsvRecord[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n'],
    }) as unknown as typeof parsed;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const { lines, record } = error as CsvError & { lines?: number; record?: unknown[] };
    // A quote left open is found at the end of the file: it is named at the line it was opened on.
    const line = error.code === 'CSV_QUOTE_NOT_CLOSED' ? openQuoteLine(text) : (lines ?? 1);
    const counted =
      error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && Array.isArray(record)
        ? `có ${record.length} cột, dòng tiêu đề có ${parsed0ColumnCount(text)}`
        : (REFUSALS[error.code] ?? `không đọc được (${error.code})`);
    throw ruleViolated(`CSV dòng ${line}: ${counted}`);
  }
  // A record's `lines` is the line it ends on; it starts as many lines before as its fields hold line breaks
  // (CRLF, LF or a lone CR, each a line to csv-parse).
  return parsed.map(({ record, info }) => ({
    line:
      info.lines - record.reduce((breaks, field) => breaks + (field.match(/\r\n|\r|\n/g)?.length ?? 0), 0),
    fields: record,
  }));
}

/** The line of the quote the text leaves open (every `"` opens or closes a quoted stretch; `""` does both). */
function openQuoteLine(text: string): number {
  let line = 1;
  let openedOn = 1;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      open = !open;
      if (open) openedOn = line;
    } else if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
  }
  return openedOn;
}

/** How many fields the header (the first record) has. */
function parsed0ColumnCount(text: string): number {
  const [first] = parse(text, {
    bom: true,
    skip_empty_lines: true,
    to_line: 1,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n'],
  });
  return (first as string[] | undefined)?.length ?? 0;
}
