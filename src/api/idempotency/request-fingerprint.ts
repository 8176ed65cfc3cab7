import { createHash } from 'node:crypto';

/**
 * What makes two requests the same request: method, path (with its query) and body, the body as canonical
 * JSON (object members sorted by name), so the same fields sent in another order are the same request.
 * Stored as a sha256 with the Idempotency-Key; the request itself is never kept. `token`: the id of the API
 * token the request was made with, if any, so that no other credential of the user (a narrower token, or a
 * token after the session) is answered what this one was allowed.
 */
export function requestFingerprint(method: string, url: string, body: unknown, token?: string): string {
  const made = token === undefined ? [method.toUpperCase(), url] : [method.toUpperCase(), url, token];
  return createHash('sha256')
    .update(`${JSON.stringify(made)}\n${canonicalJson(body)}`)
    .digest('hex');
}

type Piece = { text: string } | { value: unknown };

/**
 * The value as JSON with every object's members sorted by name; no body (undefined) is null. A value that
 * says what it is as JSON (`toJSON`, as JSON.stringify asks it) is that: a body a parser made an object of
 * (a CSV file) is told apart by its content, not taken for `{}`. Written without recursion: a body may nest
 * deeper than the call stack goes.
 */
function canonicalJson(body: unknown): string {
  const out: string[] = [];
  const pending: Piece[] = [{ value: body }];
  for (let piece = pending.pop(); piece !== undefined; piece = pending.pop()) {
    if ('text' in piece) {
      out.push(piece.text);
      continue;
    }
    const given = piece.value;
    const value =
      given !== null &&
      typeof given === 'object' &&
      typeof (given as { toJSON?: unknown }).toJSON === 'function'
        ? (given as { toJSON: () => unknown }).toJSON()
        : given;
    if (Array.isArray(value)) {
      // Pushed last to first, so they are written first to last.
      pending.push({ text: ']' });
      for (let i = value.length - 1; i >= 0; i--) {
        pending.push({ value: value[i] });
        if (i > 0) pending.push({ text: ',' });
      }
      pending.push({ text: '[' });
    } else if (value !== null && typeof value === 'object') {
      const names = Object.keys(value).sort();
      pending.push({ text: '}' });
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i]!;
        pending.push({ value: (value as Record<string, unknown>)[name] });
        pending.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(name)}:` });
      }
      pending.push({ text: '{' });
    } else {
      out.push(JSON.stringify(value ?? null));
    }
  }
  return out.join('');
}
