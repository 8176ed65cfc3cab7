import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 64;
// Node's defaults (N=2^14, r=8, p=1: 16 MiB, tens of milliseconds); written out so a change to them in
// a future Node cannot silently make every stored hash unverifiable.
const COST: ScryptOptions = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, COST, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A fresh random salt per user, so equal passwords never share a hash. Both parts are base64 text. */
export async function hashPassword(password: string): Promise<{ salt: string; hash: string }> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return { salt: salt.toString('base64'), hash: key.toString('base64') };
}

/** Compares in constant time so the answer's timing says nothing about how much of the hash matched. */
export async function verifyPassword(password: string, salt: string, hash: string): Promise<boolean> {
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'));
  return expected.length === key.length && timingSafeEqual(expected, key);
}

const decoy = { salt: randomBytes(16).toString('base64'), hash: randomBytes(KEY_LENGTH).toString('base64') };

/**
 * Spends the same scrypt time as a real check and always fails: used for an unknown e-mail so the
 * response time does not tell which addresses have an account.
 */
export async function rejectAfterHashing(password: string): Promise<false> {
  await verifyPassword(password, decoy.salt, decoy.hash);
  return false;
}
