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
import { ApiError } from "../http-error.ts";
import { CANCELLED_MESSAGE, RESTART_MESSAGE, UNEXPECTED_MESSAGE } from "./lifecycle/transitions.ts";
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
 * (`settingsFromFields`, `savedSettingsSchema`: 400 naming the first bad one), and `async`. A
 * parameter nobody reads (a typo such as `qualty`) or one given twice is a 400, never ignored.
 */
export function parseV1Query(query: Record<string, string[]>): V1CompressQuery {
  const known = new Set<string>([...SETTING_PARAMS, V1_ASYNC_PARAM]);
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const list = unknown.map(quoted).join(", ");
    throw new ApiError(
      400,
      `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${list}; the settings are ${
        SETTING_PARAMS.join(", ")
      }, and ${V1_ASYNC_PARAM}`,
    );
  }
  const fields: Record<string, string> = {};
  for (const [name, values] of Object.entries(query)) {
    if (values.length > 1) throw new ApiError(400, `${name} is given ${values.length} times; give it once`);
    fields[name] = values[0]!;
  }
  const flag = fields[V1_ASYNC_PARAM];
  if (flag !== undefined && flag !== "true" && flag !== "false") {
    throw new ApiError(400, `${V1_ASYNC_PARAM} must be "true" or "false"`);
  }
  const settings = parseInput(savedSettingsSchema, { ...DEFAULT_SAVED_SETTINGS, ...settingsFromFields(fields) });
  return { settings, async: flag === "true" };
}

/**
 * What a synchronous compress answers for a job that failed: its own message, with 422 for what
 * the image caused (corrupt, truncated, over a limit only its decode found, too slow to
 * process), 409 when it was cancelled (its batch, through the web app), 503 when a restart lost
 * it, and 500 for our own unexpected failure.
 */
export function jobFailure(job: Job): ApiError {
  const message = job.errorMessage ?? "The image could not be compressed";
  const headers = { [V1_HEADERS.jobId]: job.id };
  if (message === RESTART_MESSAGE) return new ApiError(503, message, { ...headers, "Retry-After": "60" });
  if (message === UNEXPECTED_MESSAGE) return new ApiError(500, message, headers);
  if (message === CANCELLED_MESSAGE) return new ApiError(409, message, headers);
  return new ApiError(422, message, headers);
}
