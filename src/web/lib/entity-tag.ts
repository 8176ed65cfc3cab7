/**
 * The API's entity tags: a record's version, quoted (`"7"`). A write sends the one it last read as If-Match,
 * so that a change made elsewhere since is refused (412) instead of overwritten.
 */
export const entityTagOf = (version: number) => `"${version}"`;

/** The version an ETag names; null without one, or for a tag that names no version. */
export function versionOfEntityTag(etag: string | null): number | null {
  const version = /^"(\d+)"$/.exec(etag ?? '')?.[1];
  return version === undefined ? null : Number(version);
}
