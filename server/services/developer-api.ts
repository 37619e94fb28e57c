/**
 * The developer API's own rules (issue 23, ADR 025), beside the admission it shares with the web
 * app: the query string into the one settings shape, and a failed job into its status.
 */
import { V1_ASYNC_PARAM, V1_HEADERS } from "../../contract/api-keys.ts";
import type { Job } from "../../contract/jobs.ts";
import {
  DEFAULT_SAVED_SETTINGS,
  type SavedSettings,
  savedSettingsSchema,
  settingsFromFields,
} from "../../contract/settings.ts";
import { DomainError, type JobErrorCode } from "../domain-error.ts";
import { parseInput } from "./validation.ts";

/** Every setting's name: the query parameters `POST /api/v1/compress` takes besides `async`. */
export const SETTING_PARAMS = Object.keys(DEFAULT_SAVED_SETTINGS) as (keyof SavedSettings)[];

export interface V1CompressQuery {
  settings: SavedSettings;
  /** `async=true`: answer 202 with the job's id instead of waiting for the result. */
  async: boolean;
}

/**
 * A query string's parameters by name, repeated names as arrays. Unlike Hono's `queries()`, which
 * drops them, a parameter without a name (`?=1`) or an empty one (`?&&`, a trailing `&`) is kept
 * under the name "" so that it is refused like any other unknown parameter: what the client meant
 * by it is unknown.
 */
export function queryParams(search: string): Record<string, string[]> {
  const raw = search.replace(/^\?/, "");
  const query: Record<string, string[]> = Object.create(null); // "__proto__" is just another unknown name
  for (const [name, value] of new URLSearchParams(raw)) (query[name] ??= []).push(value);
  // URLSearchParams skips empty segments itself.
  if (raw !== "" && raw.split("&").includes("")) (query[""] ??= []).push("");
  return query;
}

const quoted = (name: string) => name === "" ? "'' (a parameter without a name)" : `'${name}'`;

/**
 * The query string of `POST /api/v1/compress` (repeated names as arrays, as `queryParams` gives
 * them): the settings by the web form's names and rules over the defaults
 * (`settingsFromFields`, `savedSettingsSchema`: invalid_input naming the first bad one), and `async`.
 * A parameter nobody reads (a typo such as `qualty`) or one given twice is invalid_input, never ignored.
 */
export function parseV1Query(query: Record<string, string[]>): V1CompressQuery {
  const known = new Set<string>([...SETTING_PARAMS, V1_ASYNC_PARAM]);
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const list = unknown.map(quoted).join(", ");
    throw new DomainError(
      "invalid_input",
      `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${list}; the settings are ${
        SETTING_PARAMS.join(", ")
      }, and ${V1_ASYNC_PARAM}`,
    );
  }
  const fields: Record<string, string> = {};
  for (const [name, values] of Object.entries(query)) {
    if (values.length > 1) {
      throw new DomainError("invalid_input", `${name} is given ${values.length} times; give it once`);
    }
    fields[name] = values[0]!;
  }
  const flag = fields[V1_ASYNC_PARAM];
  if (flag !== undefined && flag !== "true" && flag !== "false") {
    throw new DomainError("invalid_input", `${V1_ASYNC_PARAM} must be "true" or "false"`);
  }
  const settings = parseInput(savedSettingsSchema, { ...DEFAULT_SAVED_SETTINGS, ...settingsFromFields(fields) });
  return { settings, async: flag === "true" };
}

/**
 * What a synchronous compress answers for a job that failed: its own message, under the code it
 * failed with (`jobs.error_code`: the codec's, or cancelled, restarted, original_gone, unexpected),
 * never worked out from the message. The status is the code's (http-error.ts STATUS_BY_CODE). A
 * row from before codes were stored has none: it answers as an image that could not be processed.
 * A restart that lost the job says to try again in a minute.
 */
export function jobFailure(job: Job, code: JobErrorCode | null): DomainError {
  const message = job.errorMessage ?? "The image could not be compressed";
  return new DomainError(code ?? "unprocessable", message, {
    headers: { [V1_HEADERS.jobId]: job.id },
    retryAfterSeconds: code === "restarted" ? 60 : undefined,
  });
}
