import { z } from 'zod';
import { ruleViolated } from '../../domain/errors';
import { DATASET_CSV_MAX_BYTES } from '../../domain/limits';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../domain/storable-text';

/**
 * A CSV file's text as the `text/csv` parser hands it on. Its text is held out of sight of the check every
 * request's texts go through (one text at most MAX_TEXT_CHARS), which would take the whole file for one
 * text: the file has its own limit (DATASET_CSV_MAX_BYTES), and each of its cells the dataset's.
 */
export class CsvFile {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  get text() {
    return this.#text;
  }

  /** As JSON (what an Idempotency-Key's fingerprint reads), the file is its text: two files, two requests. */
  toJSON() {
    return this.#text;
  }
}

/**
 * The file's text, once it is storable: a NUL character is refused (400) with the line it is on, as the check
 * of every other request refuses it in its field.
 */
export function csvFileOf(text: string): CsvFile {
  if (!isStorableText(text)) {
    const line = text.split('\n').findIndex((each) => !isStorableText(each)) + 1;
    throw ruleViolated(`CSV dòng ${line}: ${UNSTORABLE_TEXT_MESSAGE}`);
  }
  return new CsvFile(text);
}

/** What an upload of items must be. */
export const CSV_OR_ITEMS =
  'Nội dung phải là một object JSON { items: [...] }, hoặc một file CSV gửi với Content-Type: text/csv';

/** The body of a CSV upload, as the API document states it: text. */
export const csvBody = z
  .custom<CsvFile>((value) => value instanceof CsvFile, { error: CSV_OR_ITEMS })
  .meta({
    type: 'string',
    description: `With Content-Type text/csv (at most ${DATASET_CSV_MAX_BYTES / 1024 / 1024} MB, RFC 4180): a header row naming one column per input (a step's id or name), \`expected:<step>\` columns for expected texts and an optional \`tags\` column (separated by ;); each later row is an item`,
  });
