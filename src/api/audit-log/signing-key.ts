import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  encodeVerifierKey,
  generateKey,
  parseSignerKey,
  parseVerifierKey,
  publicKeyOf,
  type SignerKey,
} from '../../domain/audit/signed-note';

/** The name of the audit log: its checkpoints' origin line and its key's name. */
export const AUDIT_LOG_ORIGIN = 'workbench/audit-log';

/** The audit log's key: the signer, and the public verifier key anyone may have. */
export interface AuditSigningKey extends SignerKey {
  /** The verifier key's text (`<name>+<key ID>+<base64>`), as C2SP signed notes write it. */
  verifierKey: string;
  /** The key ID as 8 hex digits, as the verifier key's text has it. */
  keyIdHex: string;
}

export class AuditKeyError extends Error {
  override name = 'AuditKeyError';
}

/**
 * The audit log's signing key, from its file; at the first start the file is made there (mode 0600), whole
 * or not at all: written aside, then linked into place, so two instances starting at once end up with the
 * same key (the second reads the first's). The key is never in the database: whoever can rewrite the
 * database cannot sign a checkpoint.
 */
export async function loadAuditSigningKey(file: string): Promise<AuditSigningKey> {
  const text = await readKeyFile(file);
  const parsed = parseSignerKey(text.trim());
  if (!parsed.ok) throw new AuditKeyError(`${file} is not an audit signing key: ${parsed.message}`);
  const { name, keyId, secretKey } = parsed.value;
  const verifierKey = encodeVerifierKey(name, publicKeyOf(secretKey));
  return { name, keyId, secretKey, verifierKey, keyIdHex: keyId.toString(16).padStart(8, '0') };
}

/**
 * The verifier key in a file: a verifier key's text, or a signer key's (its public half is taken). Reads
 * only: a missing file is an error, nothing is generated.
 */
export async function readVerifierKey(file: string): Promise<string> {
  const text = (await readFile(file, 'utf8')).trim();
  const signer = parseSignerKey(text);
  if (signer.ok) return encodeVerifierKey(signer.value.name, publicKeyOf(signer.value.secretKey));
  const verifier = parseVerifierKey(text);
  if (!verifier.ok) throw new AuditKeyError(`not an audit log key: ${verifier.message}`);
  return text;
}

async function readKeyFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(aside, `${generateKey(AUDIT_LOG_ORIGIN).signerKey}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await chmod(aside, 0o600);
    await link(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(aside).catch(() => {});
  }
  return readFile(file, 'utf8');
}
