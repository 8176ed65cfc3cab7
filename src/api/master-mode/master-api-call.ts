import { DomainError } from '../../domain/errors';
import { allowedApiUrl } from '../../domain/master-mode/row-run';
import { readAtMost } from '../http/bounded-body';

/** The outside API failed or answered nothing usable: for the user, like a failed model call. */
const apiFailed = (message: string) => new DomainError('model_failed', message);

const API_ROW_TIMEOUT_MS = 10_000;
const API_ROW_MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;

/**
 * The GET of a master mode api row: only to allowed hosts (every redirect is checked against the list
 * too, so an allowed host cannot lead the server elsewhere), within a time and size limit; the answer
 * is the body as text.
 */
export async function callApiRow(
  url: URL,
  allowedHosts: readonly string[],
  signal?: AbortSignal,
): Promise<string> {
  const timeout = AbortSignal.timeout(API_ROW_TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let target = url;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(target, {
        method: 'GET',
        redirect: 'manual',
        signal: combined,
        headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.5' },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw apiFailed(`API chuyển hướng quá ${MAX_REDIRECTS} lần`);
        target = allowedApiUrl(new URL(response.headers.get('location')!, target).href, allowedHosts);
        continue;
      }
      const body = await boundedText(response);
      if (!response.ok) {
        throw apiFailed(
          `API trả lời ${response.status} ${response.statusText}${body.trim() ? `: ${body.trim().slice(0, 300)}` : ''}`,
        );
      }
      return body;
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (timeout.aborted) throw apiFailed(`API không trả lời trong ${API_ROW_TIMEOUT_MS / 1000} s`);
    if (signal?.aborted) throw apiFailed('Stopped');
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw apiFailed(`Không kết nối được tới API${cause ? ` (${cause})` : ''}`);
  }
}

/** The body as UTF-8 text, refused once it grows past the size limit (the rest is never read). */
async function boundedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > API_ROW_MAX_BYTES) {
    await response.body?.cancel();
    throw apiFailed(`Câu trả lời của API lớn hơn ${API_ROW_MAX_BYTES / 1024 / 1024} MB`);
  }
  const { bytes, longer } = await readAtMost(response, API_ROW_MAX_BYTES);
  if (longer) throw apiFailed(`Câu trả lời của API lớn hơn ${API_ROW_MAX_BYTES / 1024 / 1024} MB`);
  return bytes.toString('utf8');
}
