import { hkdfSync } from 'node:crypto';

/** Binds the derived key to this one use of APP_SECRET, apart from session signing and sealed API keys. */
const CONTEXT = 'prompt-flow-workbench/event-chain/hmac-sha256/v1';

/** The connection setting the database's event hashing reads its key from (migrations/019_event_chain.sql). */
export const EVENT_KEY_SETTING = 'workbench.event_key';

const BLOCK = 64;

/**
 * The event chain's HMAC key as the database uses it: the inner and outer pad keys (64 bytes each, the
 * derived key padded and XORed with 0x36 and 0x5c), in hex, so PostgreSQL's sha256() alone computes the HMAC.
 */
export function eventChainKey(appSecret: string): string {
  const key = Buffer.alloc(BLOCK);
  Buffer.from(hkdfSync('sha256', appSecret, '', CONTEXT, 32)).copy(key);
  const inner = Buffer.from(key.map((byte) => byte ^ 0x36));
  const outer = Buffer.from(key.map((byte) => byte ^ 0x5c));
  return Buffer.concat([inner, outer]).toString('hex');
}

/** The connection settings that let a session append events and check them. */
export function eventChainSettings(appSecret: string): Record<string, string> {
  return { [EVENT_KEY_SETTING]: eventChainKey(appSecret) };
}
