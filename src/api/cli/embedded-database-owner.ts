import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runningProcess } from '../database/embedded-postgres';

export interface EmbeddedDatabaseOwner {
  pid: number;
  /** The port the running PostgreSQL listens on (postmaster.pid's fourth line), when it says. */
  port: number | null;
}

/**
 * The PostgreSQL already running on the embedded data directory, if any. A tool run beside the server must
 * not start a second one on the same directory: PostgreSQL refuses it, and the tool would fail obscurely.
 * A postmaster.pid left by a crash names a dead process and does not count.
 */
export async function embeddedDatabaseOwner(dataDir: string): Promise<EmbeddedDatabaseOwner | null> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !(await runningProcess(pid))) return null;
  const port = Number(lines[3]);
  return { pid, port: Number.isInteger(port) && port > 0 ? port : null };
}
