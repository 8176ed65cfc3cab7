/** No stored event is larger than this much JSON (its data and metadata, UTF-8). */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

/** An event too large to store: nothing of its append is written. */
export class EventTooLarge extends Error {
  override name = 'EventTooLarge';

  constructor(
    readonly eventType: string,
    readonly bytes: number,
  ) {
    super(
      `A ${eventType} event of ${bytes} bytes is larger than the ${MAX_EVENT_BYTES} bytes an event may be`,
    );
  }
}

/**
 * Refuses a batch holding an event past MAX_EVENT_BYTES. `batch` is the batch's JSON: while it is short
 * enough that no event in it can be too large (a character is at most 3 bytes of UTF-8), nothing more is
 * measured.
 */
export function checkEventSizes(batch: string, events: readonly { type: string }[]): void {
  if (batch.length * 3 <= MAX_EVENT_BYTES) return;
  for (const event of events) {
    const bytes = Buffer.byteLength(JSON.stringify(event));
    if (bytes > MAX_EVENT_BYTES) throw new EventTooLarge(event.type, bytes);
  }
}
