import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EVENT_KEY_SETTING, eventChainKey, eventChainSettings } from './event-chain-key';

const SECRET = 'a-secret-a-secret-a-secret-a-secret-0123';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

describe('the event chain key', () => {
  it('gives the pad keys with which two sha256 make the HMAC of the derived key', () => {
    const pads = Buffer.from(eventChainKey(SECRET), 'hex');
    expect(pads).toHaveLength(128);
    const message = Buffer.from('["execution-1",1,"ExecutionStarted",null,"2026-01-01",{}]');
    const derived = Buffer.from(
      hkdfSync('sha256', SECRET, '', 'prompt-flow-workbench/event-chain/hmac-sha256/v1', 32),
    );
    const hmac = createHmac('sha256', derived).update(message).digest();
    const inner = pads.subarray(0, 64);
    const outer = pads.subarray(64);
    expect(sha256(Buffer.concat([outer, sha256(Buffer.concat([inner, message]))]))).toEqual(hmac);
  });

  it('differs by secret and is sent as the one connection setting', () => {
    expect(eventChainKey(SECRET)).not.toBe(eventChainKey(`${SECRET}x`));
    expect(eventChainSettings(SECRET)).toEqual({ [EVENT_KEY_SETTING]: eventChainKey(SECRET) });
    expect(EVENT_KEY_SETTING).toBe('workbench.event_key');
  });
});
