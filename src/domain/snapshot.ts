/**
 * How an aggregate's state is stored as a snapshot, and read back: a snapshot lets a command on a long
 * stream fold only the events after it. Snapshots are a cache of the fold, never a record: one that cannot
 * be read is ignored and the state is folded from the stream's first event.
 */
export interface StateSnapshot<State> {
  /**
   * Names the state's shape and the rules of the evolve that made it: a stored snapshot of another shape is
   * never read. Bumped by hand whenever the state's type or what evolve makes of an event changes; each
   * decider's snapshot test folds fixed histories and holds the result to a stored hash, so a change that
   * forgets the bump fails there.
   */
  shape: string;
  /** The state as a JSON value that decode turns back into an equal state. */
  encode(state: State): unknown;
  /** The state a stored JSON value holds; null when it is not one of this shape (then: fold from events). */
  decode(json: unknown): State | null;
}

/**
 * A snapshot is written by the append that crosses a multiple of this many events. A load then folds at
 * most this many events less one after it; writing one costs one JSON text of the state per that many
 * events. At 100 a step run's load folds at most 99 events (about a millisecond) whatever the stream's
 * length, and streams of fewer than 100 events (most of them) never write one.
 */
export const SNAPSHOT_EVERY = 100;

/** Whether an append from version `before` to `after` crosses a multiple of `every` (0: never snapshot). */
export const snapshotDue = (before: number, after: number, every: number) =>
  every > 0 && Math.floor(after / every) > Math.floor(before / every);

type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string|null' | 'number|null';

/** Whether `value` is an object whose fields `kinds` names are each of their kind (others are not looked at). */
export function hasFields(
  value: unknown,
  kinds: Record<string, FieldKind>,
): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  return Object.entries(kinds).every(([field, kind]) => isKind(value[field], kind));
}

function isKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'string|null':
      return value === null || typeof value === 'string';
    case 'number|null':
      return value === null || typeof value === 'number';
    default:
      return typeof value === kind;
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON value as one text whatever the order its objects' keys were made in (keys sorted), with undefined
 * fields left out as JSON leaves them: what two states that must be equal are compared by.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isObject(item)
      ? Object.fromEntries(
          Object.keys(item)
            .toSorted()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}
