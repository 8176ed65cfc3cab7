import { createHmac } from 'node:crypto';
import { allowedOutsideUrl } from '../../domain/outside-hosts';
import { readAtMost } from '../http/bounded-body';

/** How long a receiver may take to answer a delivery. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is read (the rest is dropped). */
export const WEBHOOK_MAX_ANSWER_BYTES = 64 * 1024;

export const WEBHOOK_URL_WORDS = {
  what: 'webhook',
  setting: 'WEBHOOK_HOSTS',
  example: 'https://hooks.example.com/workbench',
};

/** A webhook's URL, allowed by WEBHOOK_HOSTS by the same rule as every URL the server calls. */
export const allowedWebhookUrl = (input: string, hosts: readonly string[]) =>
  allowedOutsideUrl(input, hosts, WEBHOOK_URL_WORDS);

/**
 * `X-Workbench-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`.
 * A receiver computes the same from the raw body and the `t` it got, compares in constant time, and refuses
 * a `t` too old.
 */
export function signatureOf(secret: string, body: string, at: Date = new Date()) {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

export interface TryOutcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs one delivery: delivered on a 2xx answer. A redirect is not followed (its target was never allowed),
 * the answer is read up to 64 kB within 10 s, and a host no longer in WEBHOOK_HOSTS is not called at all.
 */
export async function tryDelivery(
  url: string,
  secret: string,
  body: string,
  allowedHosts: readonly string[],
): Promise<TryOutcome> {
  let target: URL;
  try {
    target = allowedWebhookUrl(url, allowedHosts);
  } catch (error) {
    return { delivered: false, statusCode: null, error: (error as Error).message };
  }
  const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  try {
    const response = await fetch(target, {
      method: 'POST',
      redirect: 'manual',
      signal: timeout,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'prompt-flow-workbench-webhook',
        'x-workbench-signature': signatureOf(secret, body),
      },
      body,
    });
    const answer = await boundedText(response);
    if (response.status >= 200 && response.status < 300) {
      return { delivered: true, statusCode: response.status, error: null };
    }
    const said = answer.trim() ? `: ${answer.trim().slice(0, 300)}` : '';
    return { delivered: false, statusCode: response.status, error: `HTTP ${response.status}${said}` };
  } catch (error) {
    if (timeout.aborted)
      return { delivered: false, statusCode: null, error: `no answer in ${WEBHOOK_TIMEOUT_MS / 1000} s` };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { delivered: false, statusCode: null, error: `could not connect${cause ? ` (${cause})` : ''}` };
  }
}

/** At most WEBHOOK_MAX_ANSWER_BYTES of the answer, as text; the rest is never read. */
async function boundedText(response: Response): Promise<string> {
  const { bytes } = await readAtMost(response, WEBHOOK_MAX_ANSWER_BYTES);
  return bytes.toString('utf8');
}
