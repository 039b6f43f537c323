/**
 * The Studio's only way to the server: same-origin requests that carry the session cookie, to the
 * Studio's login endpoints, the GSQL server (/gsql/...) and REST++ (/restpp/...). A 401 means the
 * session is gone (NotLoggedIn); an envelope with `error: true` becomes an ApiError with its message.
 */

export class NotLoggedIn extends Error {
  constructor(message = 'Your session has ended; log in again.') {
    super(message);
    this.name = 'NotLoggedIn';
  }
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Envelope<T = unknown> {
  error: boolean;
  message: string;
  results: T;
  code?: string;
}

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init });
  } catch (e) {
    throw new ApiError(`The server did not answer (${e instanceof Error ? e.message : String(e)}).`);
  }
  if (response.status === 401) {
    const text = await response.text();
    throw new NotLoggedIn(messageOf(text) ?? undefined);
  }
  return response;
}

function messageOf(text: string): string | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (v !== null && typeof v === 'object' && typeof (v as Envelope).message === 'string')
      return (v as Envelope).message;
  } catch {
    // not JSON
  }
  return undefined;
}

async function envelopeOf<T>(response: Response): Promise<Envelope<T>> {
  const text = await response.text();
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ApiError(
      `Unexpected answer (HTTP ${response.status}): ${text.slice(0, 300)}`,
      undefined,
      response.status,
    );
  }
  const env = v as Envelope<T>;
  if (env === null || typeof env !== 'object') throw new ApiError('Unexpected answer from the server.');
  if (env.error === true || (env.error as unknown) === 'true')
    throw new ApiError(env.message || `HTTP ${response.status}`, env.code, response.status);
  return env;
}

export async function getEnvelope<T = unknown>(path: string): Promise<Envelope<T>> {
  return envelopeOf<T>(await send(path));
}

export async function postEnvelope<T = unknown>(
  path: string,
  body: string,
  contentType = 'text/plain; charset=utf-8',
): Promise<Envelope<T>> {
  return envelopeOf<T>(await send(path, { method: 'POST', headers: { 'Content-Type': contentType }, body }));
}

/** A POST answered with text (the GSQL server's statement output). */
export async function postText(path: string, body: string): Promise<string> {
  const response = await send(path, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(messageOf(text) ?? `HTTP ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

/**
 * A file posted with upload progress (fetch reports none): `onProgress` gets the fraction sent.
 * Resolves with the answer's envelope.
 */
export function uploadWithProgress<T = unknown>(
  path: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<Envelope<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError('The upload failed: the server did not answer.'));
    xhr.onload = () => {
      if (xhr.status === 401) {
        reject(new NotLoggedIn());
        return;
      }
      onProgress(1);
      envelopeOf<T>(new Response(xhr.responseText, { status: xhr.status })).then(resolve, reject);
    };
    xhr.send(file);
  });
}
