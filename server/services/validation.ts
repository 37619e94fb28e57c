import type { z } from "zod";
import { DomainError } from "../domain-error.ts";

/** Validates input at the edge; a failure is invalid_input naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join(".");
  // Our messages already name the field (a list's item, `formats.0`, by the list's name); zod's generic ones
  // get it prefixed.
  const named = issue.message.startsWith(field) || issue.message.startsWith(`${String(issue.path[0])} `);
  const message = field && !named ? `${field}: ${issue.message}` : issue.message;
  throw new DomainError("invalid_input", message);
}
