import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { allowedOutsideUrl } from '../../domain/outside-hosts';
import { readAtMost } from '../http/bounded-body';
import { traceDelivery } from '../telemetry/spans';

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

/** How a webhook's secret is written: Standard Webhooks' `whsec_` and the base64 of its bytes. */
export const SECRET_PREFIX = 'whsec_';

/** A new webhook secret: 32 random bytes. */
export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * A stored secret as Standard Webhooks write it. A webhook made before deliveries were signed that way has a
 * secret of 64 hex characters whose text was the HMAC key: it keeps those bytes, written as `whsec_` and their
 * base64, so its receiver's old check (X-Workbench-Signature) holds and a Standard Webhooks one can be set up
 * with the same key.
 */
export const standardSecret = (stored: string) =>
  stored.startsWith(SECRET_PREFIX)
    ? stored
    : `${SECRET_PREFIX}${Buffer.from(stored, 'utf8').toString('base64')}`;

/** The bytes a secret keys the HMAC with: the base64 after `whsec_`. */
export const secretBytes = (secret: string) =>
  Buffer.from(standardSecret(secret).slice(SECRET_PREFIX.length), 'base64');

/**
 * Deprecated (kept for one release beside the Standard Webhooks headers): `X-Workbench-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the secret's bytes (for a webhook made
 * before, the text of its 64 hex characters, as it always was).
 */
export function signatureOf(secret: string, body: string, at: Date = new Date()) {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secretBytes(secret)).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/**
 * Standard Webhooks' `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` for each
 * secret given (the current one, and the one before it while a rotation lasts), separated by spaces.
 */
export function standardSignatureOf(secrets: readonly string[], id: string, at: Date, body: string) {
  return secrets.map((secret) => new Webhook(standardSecret(secret)).sign(id, at, body)).join(' ');
}

/** What a delivery is sent with: its id (the same on every try), its type and the secrets that sign it. */
export interface DeliverySigning {
  id: string;
  type: string;
  /** The current secret first; then the one before it, while a rotation lasts. */
  secrets: readonly string[];
}

/** The headers of one try of a delivery sent at `at`. */
export function deliveryHeaders(signing: DeliverySigning, body: string, at: Date = new Date()) {
  return {
    'content-type': 'application/json',
    'user-agent': 'prompt-flow-workbench-webhook',
    'webhook-id': signing.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': standardSignatureOf(signing.secrets, signing.id, at, body),
    'x-workbench-event': signing.type,
    'x-workbench-signature': signatureOf(signing.secrets[0]!, body, at),
  };
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
  signing: DeliverySigning,
  body: string,
  allowedHosts: readonly string[],
): Promise<TryOutcome> {
  let target: URL;
  try {
    target = allowedWebhookUrl(url, allowedHosts);
  } catch (error) {
    return { delivered: false, statusCode: null, error: (error as Error).message };
  }
  const attributes = {
    'workbench.webhook_delivery.id': signing.id,
    'workbench.webhook.event_type': signing.type,
    'server.address': target.hostname,
  };
  return traceDelivery('webhook delivery', attributes, async (span) => {
    const outcome = await post(target, signing, body);
    if (outcome.statusCode !== null) span.setStatusCode(outcome.statusCode);
    if (!outcome.delivered)
      span.failed(outcome.statusCode === null ? 'no_answer' : String(outcome.statusCode));
    return outcome;
  });
}

/** The POST of a delivery to its allowed target, and what came of it. */
async function post(target: URL, signing: DeliverySigning, body: string): Promise<TryOutcome> {
  const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  try {
    const response = await fetch(target, {
      method: 'POST',
      redirect: 'manual',
      signal: timeout,
      headers: deliveryHeaders(signing, body),
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
