import { TooLargeError } from './errors.js';

/**
 * Reads a response body into memory, refusing more than `maxBytes`. Checked against
 * Content-Length first and again while streaming, because Content-Length may be absent
 * (chunked) or describe the compressed size. Stops the download as soon as the cap is
 * passed, so a runaway page cannot fill memory.
 */
export async function readBodyCapped(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new TooLargeError(url, maxBytes, response.status);
  }
  if (!response.body) return new Uint8Array(0);

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError(url, maxBytes, response.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** Lets go of a body we do not need, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}
