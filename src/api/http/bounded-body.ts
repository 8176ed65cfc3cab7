/**
 * An outside answer's body, read up to `maxBytes` and no further: the bytes read (at most `maxBytes`) and
 * whether the body was longer, in which case the rest is never read. What the caller does with a longer
 * body is its own: keep the start (a webhook receiver's answer) or refuse it (a master mode API row).
 */
export async function readAtMost(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Buffer; longer: boolean }> {
  if (!response.body) return { bytes: Buffer.alloc(0), longer: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), longer: false };
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), longer: true };
    }
  }
}
