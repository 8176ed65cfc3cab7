/**
 * Text PostgreSQL cannot store: a NUL character (refused in text and jsonb) or a lone UTF-16 surrogate
 * (not valid Unicode, refused once encoded). Input holding either is refused where it arrives, naming
 * where it is, instead of failing deep inside a statement.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Text from outside (a model's answer, an API's, their error messages) made storable: a NUL is dropped and
 * a lone surrogate becomes U+FFFD. A user's input is refused instead; an answer is kept, never thrown away.
 */
export const storableText = (text: string) =>
  isStorableText(text) ? text : text.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\uFFFD');

export const UNSTORABLE_TEXT_MESSAGE = 'chứa ký tự không lưu được (NUL hoặc surrogate đơn lẻ)';

interface Place {
  value: unknown;
  key: string | number | null;
  parent: Place | null;
}

const pathOf = (place: Place | null, last?: string): (string | number)[] => {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let at = place; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
};

/** A string (or object key) found in a value, and where. */
export interface FoundText {
  path: (string | number)[];
  text: string;
}

/**
 * The first string (or object key) in `value` that `isBad` picks out, with its path; null when none is.
 * Walks without recursion and keeps each place's parent rather than its path, so a deeply nested value
 * costs neither stack nor time beyond its size.
 */
export function findText(value: unknown, isBad: (text: string) => boolean): FoundText | null {
  const pending: Place[] = [{ value, key: null, parent: null }];
  for (let place = pending.pop(); place !== undefined; place = pending.pop()) {
    const current = place.value;
    if (typeof current === 'string') {
      if (isBad(current)) return { path: pathOf(place), text: current };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        pending.push({ value: current[i], key: i, parent: place });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (isBad(key)) return { path: pathOf(place, key), text: key };
        pending.push({ value: child, key, parent: place });
      }
    }
  }
  return null;
}

/** The path of the first string (or object key) in `value` that is not storable text, or null. */
export const unstorableTextPath = (value: unknown) =>
  findText(value, (text) => !isStorableText(text))?.path ?? null;
