/**
 * The one way the web app talks to the server (spec §7): credentials always,
 * JSON only when a body is given, and the spec's generic error rule.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    /** The server's `{ error }` text when it sent one. */
    readonly serverMessage: string | null,
    bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }
}

export async function apiRequest(method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(path, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(res);
  return res;
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => "");
  let serverMessage: string | null = null;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const msg = parsed.error ?? parsed.message;
    if (typeof msg === "string") serverMessage = msg;
  } catch { /* not JSON */ }
  throw new ApiRequestError(res.status, serverMessage, text, res.statusText);
}

export async function apiJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  return await res.json() as T;
}

/** The server's message for a failure, or `fallback`. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiRequestError) return err.serverMessage ?? fallback;
  return fallback;
}
