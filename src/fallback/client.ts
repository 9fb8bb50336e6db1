// Asking another account service over HTTP (contract section 20): every request carries the caller's abort signal
// (a source slower than its budget counts as unknown), and an answer is read up to a bound, never whole.
/** A profile answer is a few kilobytes; a name look-up of 10 names less. */
const MAX_ANSWER_BYTES = 256 * 1024;

export type SourceAnswer = { status: number; body: unknown } | null;

/**
 * The status and JSON body of a GET or POST, or null when the source did not answer in time, could not be reached,
 * or sent something that is not JSON or is too big: the caller treats all of these as "unknown".
 */
export async function askSource(url: string, signal: AbortSignal, body?: unknown): Promise<SourceAnswer> {
  try {
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal,
    });
    if (response.status === 204 || response.status === 404) {
      await response.body?.cancel();
      return { status: response.status, body: null };
    }
    const text = await boundedText(response, signal);
    if (text === null) return null;
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  } catch {
    return null;
  }
}

async function boundedText(response: Response, signal: AbortSignal): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_ANSWER_BYTES || signal.aborted) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
