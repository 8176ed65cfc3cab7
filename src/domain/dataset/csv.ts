import { ruleViolated } from '../errors';

/** A CSV file's records, each with the line it starts on (1 is the first line). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * The records of a CSV text, strictly as RFC 4180 writes them: fields separated by commas, records by CRLF
 * (a bare LF is taken too), a field in double quotes may hold commas, line breaks and `""` for a quote. A
 * quote inside an unquoted field, text after a closing quote, or a quote left open is refused (400) with the
 * line it is on. A byte order mark at the start is skipped; a last line break ends the last record and adds
 * none; blank lines are skipped. Every record must have as many fields as the first.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const refuse = (where: number, message: string) => ruleViolated(`CSV dòng ${where}: ${message}`);
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    // One record: fields until a line break or the end.
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        const opened = line;
        i++;
        for (;;) {
          if (i >= text.length) throw refuse(opened, 'dấu ngoặc kép mở nhưng không đóng');
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        const after = text[i];
        if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r')
          throw refuse(
            line,
            'có ký tự sau dấu ngoặc kép đóng (hãy đặt cả ô trong ngoặc kép, "" cho một dấu ")',
          );
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
          if (text[i] === '"')
            throw refuse(line, 'dấu ngoặc kép trong ô không có ngoặc kép (hãy đặt cả ô trong ngoặc kép)');
          field += text[i];
          i++;
        }
      }
      fields.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') {
        if (text[i + 1] !== '\n') throw refuse(line, 'ký tự CR không theo sau bởi LF');
        i++;
      }
      if (text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    if (fields.length === 1 && fields[0] === '') continue;
    if (records.length > 0 && fields.length !== records[0]!.fields.length)
      throw refuse(start, `có ${fields.length} cột, dòng tiêu đề có ${records[0]!.fields.length}`);
    records.push({ line: start, fields });
  }
  return records;
}
