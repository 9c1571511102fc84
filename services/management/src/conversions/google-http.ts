/** What a Google endpoint answered: the status and the parsed JSON body (undefined when not JSON). */
export interface GoogleAnswer {
  status: number;
  body: unknown;
  text: string;
}

/** One POST to Google with a deadline; a network failure or timeout rejects. */
export async function postToGoogle(
  url: string,
  request: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<GoogleAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** A failure worth trying again later (a 429, a 5xx, the network), with the reason kept on the row. */
export class RetryableExportError extends Error {}

/** A failure no retry can mend (the conversion or the request is refused for what it is). */
export class PermanentExportError extends Error {}
