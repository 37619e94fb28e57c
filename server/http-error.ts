import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An error the API answers with `{ error: message }` and this status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
