/** The two versions the screen compares: the chosen one, and the one it is compared from. */
export interface VersionSelection {
  version: number;
  base: number;
}

/**
 * `?version=N` is the chosen version (the current one when absent or unknown); `?base=M` the version it is
 * compared from (the one before it when absent or unknown; for the first version, itself).
 */
export function versionSelectionOf(search: string, versions: readonly number[]): VersionSelection | null {
  const current = versions.at(-1);
  if (current === undefined) return null;
  const params = new URLSearchParams(search);
  const known = (name: string) => {
    const value = params.get(name);
    const n = value === null || value.trim() === '' ? Number.NaN : Number(value);
    return versions.includes(n) ? n : null;
  };
  const version = known('version') ?? current;
  const base = known('base') ?? versions[versions.indexOf(version) - 1] ?? version;
  return { version, base };
}

/** The search with a new selection; choosing a version alone compares it with the one before again. */
export function searchWithSelection(search: string, selection: { version: number; base?: number }): string {
  const params = new URLSearchParams(search);
  params.set('version', String(selection.version));
  if (selection.base === undefined) params.delete('base');
  else params.set('base', String(selection.base));
  return `?${params}`;
}

/**
 * Whether the versions read so far hold those the search names (`?version=`, `?base=`); without a chosen
 * version the current one, the newest, is wanted: that is the last, so every page is.
 */
export function selectionRead(search: string, versions: readonly number[], lastRead: boolean): boolean {
  const params = new URLSearchParams(search);
  const named = (name: string) => {
    const value = params.get(name);
    return value === null || value.trim() === '' ? null : Number(value);
  };
  const version = named('version');
  if (version === null || !Number.isInteger(version)) return lastRead;
  const base = named('base');
  return (
    lastRead ||
    (versions.includes(version) && (base === null || !Number.isInteger(base) || versions.includes(base)))
  );
}
