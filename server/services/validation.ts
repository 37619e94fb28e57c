import type { z } from "zod";
import { ApiError } from "../http-error.ts";

/** Validates input at the edge; a failure is a 400 naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join(".");
  // Our messages already name the field; zod's generic ones get it prefixed.
  const message = field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
  throw new ApiError(400, message);
}
