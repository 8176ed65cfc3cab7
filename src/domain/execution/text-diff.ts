/** A piece of an edited text: kept as it was, taken out, or put in. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Beyond this many differing tokens a word diff says little; lines are compared instead. */
const MAX_EDIT_DISTANCE = 1000;

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

/** Myers' shortest edit script over two token lists; null when it is longer than MAX_EDIT_DISTANCE. */
function diffTokens(a: string[], b: string[]): DiffPart[] | null {
  // The common start and end need no search.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = editScript(a.slice(start, endA), b.slice(start, endB));
  if (!middle) return null;
  return withoutStrayBlanks(
    merged([
      { kind: 'same', text: a.slice(0, start).join('') },
      ...middle,
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

function editScript(a: string[], b: string[]): DiffPart[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const furthest = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(furthest.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && furthest[offset + k - 1]! < furthest[offset + k + 1]!);
      let x = down ? furthest[offset + k + 1]! : furthest[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      furthest[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, a, b, d);
    }
  }
  return null;
}

/** Walks the recorded frontiers back from the end, collecting what each move kept, removed or added. */
function backtrack(trace: Int32Array[], offset: number, a: string[], b: string[], depth: number): DiffPart[] {
  const parts: DiffPart[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = depth; d > 0; d--) {
    const furthest = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && furthest[offset + k - 1]! < furthest[offset + k + 1]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = furthest[offset + previousK]!;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      parts.push({ kind: 'same', text: a[--x]! });
      y--;
    }
    if (down) parts.push({ kind: 'added', text: b[--y]! });
    else parts.push({ kind: 'removed', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    parts.push({ kind: 'same', text: a[--x]! });
    y--;
  }
  return parts.reverse();
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
