import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';

const RUN_TEXTS_CHANNEL = 'run_texts';
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a message is cut well below that. */
const MAX_PAYLOAD_BYTES = 7_000;
/** The longest piece of a token text in one item: escaped JSON of it stays far below the payload limit. */
const MAX_PIECE_CHARS = 1_000;

/** What one process tells the others of the runs it is making: a run's next text, or its end. */
export type RunTextItem =
  | { streamId: string; runId: string; after: number; text: string }
  | { streamId: string; runId: string; ended: true };

/**
 * Carries the tokens of the runs this process is making to the sockets of the other processes on the
 * database (PostgreSQL NOTIFY; nothing is stored: the answer itself reaches every process as its event).
 * Items are sent in order, one NOTIFY at a time, many to a NOTIFY while one is on its way; items of other
 * processes are handed to `receive`. Nothing is sent while this process is the only one.
 */
export class RunTextRelay {
  private readonly origin = randomUUID();
  private queue: RunTextItem[] = [];
  private sending = false;
  private stopListening: (() => Promise<unknown>) | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly others: () => boolean,
    private readonly receive: (item: RunTextItem) => void,
  ) {}

  async start() {
    const listening = await this.sql.listen(RUN_TEXTS_CHANNEL, (payload) => this.received(payload));
    this.stopListening = () => listening.unlisten();
  }

  async stop() {
    await this.stopListening?.();
  }

  send(item: RunTextItem) {
    if (!this.others()) return;
    if ('text' in item && item.text.length > MAX_PIECE_CHARS) {
      for (let at = 0; at < item.text.length; at += MAX_PIECE_CHARS)
        this.queue.push({ ...item, text: item.text.slice(at, at + MAX_PIECE_CHARS) });
    } else {
      this.queue.push(item);
    }
    if (!this.sending) void this.flush();
  }

  private async flush() {
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const { payload, rest } = pack(this.origin, this.queue);
        this.queue = rest;
        // A lost message costs the other processes' sockets some tokens; the answer comes with its event.
        await this.sql.notify(RUN_TEXTS_CHANNEL, payload).catch(() => {});
      }
    } finally {
      this.sending = false;
    }
  }

  private received(payload: string) {
    let message: { origin?: unknown; items?: unknown };
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (message.origin === this.origin || !Array.isArray(message.items)) return;
    for (const item of message.items as RunTextItem[]) this.receive(item);
  }
}

/** As many items from the front of the queue as fit one payload (always at least one). */
function pack(origin: string, queue: RunTextItem[]): { payload: string; rest: RunTextItem[] } {
  const head = `{"origin":${JSON.stringify(origin)},"items":[`;
  let payload = head;
  let taken = 0;
  for (const item of queue) {
    const json = JSON.stringify(item);
    const next = `${payload}${taken > 0 ? ',' : ''}${json}`;
    if (taken > 0 && Buffer.byteLength(next) + 2 > MAX_PAYLOAD_BYTES) break;
    payload = next;
    taken++;
  }
  return { payload: `${payload}]}`, rest: queue.slice(taken) };
}
