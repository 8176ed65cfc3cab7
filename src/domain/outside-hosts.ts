import { ruleViolated } from './errors';

/** How a refusal names what asked for the URL and the setting that lists the hosts. */
export interface OutsideUrlWords {
  /** What the URL is for, as the messages say it: 'API row', 'webhook'. */
  what: string;
  /** The setting that lists the allowed hosts: 'MASTER_MODE_API_HOSTS', 'WEBHOOK_HOSTS'. */
  setting: string;
  /** An example of a URL of that kind. */
  example: string;
}

/**
 * The one rule for every URL the server calls on a user's word (a master mode api row, a webhook): http or
 * https, no user name or password, and its host in the list the operator set. An entry `host:port` allows
 * that port; an entry without a port allows the scheme's default port only. Nothing else is reachable.
 */
export function allowedOutsideUrl(
  input: string,
  allowedHosts: readonly string[],
  words: OutsideUrlWords,
): URL {
  const { what, setting, example } = words;
  if (allowedHosts.length === 0) {
    throw ruleViolated(`Server này đã tắt ${what}: không có host nào được phép (${setting} trống)`);
  }
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw ruleViolated(`URL của ${what} phải là một URL, ví dụ ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw ruleViolated(`${what} chỉ được gọi URL http:// hoặc https://`);
  }
  if (url.username !== '' || url.password !== '') {
    throw ruleViolated(`URL của ${what} không được chứa user name hay password`);
  }
  const host = url.host.toLowerCase();
  if (!allowedHosts.some((entry) => entry.toLowerCase() === host)) {
    throw ruleViolated(
      `Host ${host} không được phép cho ${what}; các host được phép: ${allowedHosts.join(', ')} (${setting})`,
    );
  }
  return url;
}
