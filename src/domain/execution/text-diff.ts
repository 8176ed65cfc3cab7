import { diffArrays } from 'diff';

/** A piece of an edited text: kept as it was, taken out, or put in. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * Beyond this many differing tokens a word diff says little (lines are compared instead), and a word edit
 * distance is only said to be at least this much.
 */
export const MAX_EDIT_DISTANCE = 1000;

/** Words with the spaces after them, so that joining the tokens gives the text back exactly. */
const wordsOf = (text: string) => text.match(/\s+|[^\s]+/g) ?? [];
/** Lines with their line break. */
const linesOf = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/**
 * Before and after of an edit as kept, removed and added pieces: word by word, or line by line when the
 * texts differ too much for words to be readable (or to be compared in reasonable time). Joining the
 * same and removed parts gives the text before; the same and added parts, the text after.
 */
export function diffText(before: string, after: string): DiffPart[] {
  const byWords = diffTokens(wordsOf(before), wordsOf(after));
  if (byWords) return byWords;
  const byLines = diffTokens(linesOf(before), linesOf(after));
  if (byLines) return byLines;
  return merged([
    { kind: 'removed', text: before },
    { kind: 'added', text: after },
  ]);
}

/** The shortest edit script over two token lists (jsdiff's); null when it is longer than MAX_EDIT_DISTANCE. */
function diffTokens(a: string[], b: string[]): DiffPart[] | null {
  // The common start and end are kept whole, so an edit is shown where it is (not slid along repeated tokens).
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const changes = diffArrays(a.slice(start, endA), b.slice(start, endB), {
    maxEditLength: MAX_EDIT_DISTANCE,
  });
  if (!changes) return null;
  return withoutStrayBlanks(
    merged([
      { kind: 'same', text: a.slice(0, start).join('') },
      ...changes.map(
        ({ added, removed, value }): DiffPart => ({
          kind: added ? 'added' : removed ? 'removed' : 'same',
          text: value.join(''),
        }),
      ),
      { kind: 'same', text: a.slice(endA).join('') },
    ]),
  );
}

/**
 * Two texts with nothing in common still share their spaces, and a diff anchored on them alternates
 * word for word. Blanks kept between two changes are folded into the change, so a rewritten sentence
 * reads as the old sentence removed and the new one added.
 */
function withoutStrayBlanks(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed = '';
  let added = '';
  let held = '';
  const flush = () => {
    out.push({ kind: 'removed', text: removed }, { kind: 'added', text: added });
    removed = '';
    added = '';
  };
  for (const part of parts) {
    const inChange = removed !== '' || added !== '';
    if (part.kind === 'same' && inChange && /^\s+$/.test(part.text)) {
      held += part.text;
    } else if (part.kind === 'same') {
      if (inChange) flush();
      out.push({ kind: 'same', text: held + part.text });
      held = '';
    } else {
      removed += held;
      added += held;
      held = '';
      if (part.kind === 'removed') removed += part.text;
      else added += part.text;
    }
  }
  if (removed !== '' || added !== '') flush();
  out.push({ kind: 'same', text: held });
  return merged(out);
}

/** Neighbouring parts of one kind become one part; empty parts go. */
function merged(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    if (part.text === '') continue;
    const last = out[out.length - 1];
    if (last && last.kind === part.kind) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}
