/**
 * The developer page's reference, read from the contract the server validates with: the paths
 * (`V1`), the settings' names, ranges and defaults, the response headers and the plans. A setting
 * or header added to the contract without words here fails type-checking.
 */
import { V1, V1_ASYNC_PARAM, V1_HEADERS } from "../../../../../contract/api-keys.ts";
import { DEFAULT_SET_WIDTHS, MAX_SET_WIDTHS } from "../../../../../contract/web-sets.ts";
import { MB, type PlanLimits, PLANS, PREMIUM_PRICE_LABEL } from "../../../../../contract/plans.ts";
import {
  CHROMA_SUBSAMPLINGS,
  type CompressSettings,
  DEFAULT_SAVED_SETTINGS,
  ENCODERS,
  FITS,
  FORMAT_CHOICES,
  MODES,
  OUTPUT_FORMATS,
  QUALITY_RANGE,
  RESIZE_RANGE,
  SETTING_DESCRIPTIONS,
  TARGET_KB_RANGE,
  TARGET_SCORE_RANGE,
} from "../../../../../contract/settings.ts";
import { JOB_STATUSES } from "../../../../../contract/jobs.ts";

/** What the examples say instead of the site's address until the page knows it (prerendered HTML). */
export const PLACEHOLDER_ORIGIN = "https://HOST";

const AUTH = `-H "Authorization: Bearer $SQUEEZE_API_KEY"`;
const JOB_ID_WORD = "JOB_ID";
/** A job path with a shell variable for the id (`V1.job` would escape the `$`). */
const withJobVar = (path: (id: string) => string) => path(JOB_ID_WORD).replace(JOB_ID_WORD, () => "$JOB_ID");

/** One image in, the smaller image out, its numbers in the response headers (`-D -` prints them). */
export function syncExample(origin: string): string {
  return [
    `curl -sS -X POST "${origin}${V1.compress}?quality=75" \\`,
    `  ${AUTH} \\`,
    `  -H "Content-Type: image/jpeg" \\`,
    `  --data-binary @photo.jpg -o photo.min.jpg -D -`,
  ].join("\n");
}

/**
 * What `-D -` prints for the example above, abridged (the numbers are an illustration). The server
 * sends header names in lower case; HTTP header names are case-insensitive.
 */
export const SYNC_RESPONSE = [
  "HTTP/1.1 200 OK",
  "content-type: image/jpeg",
  ...([
    ["count", "4"],
    ["width", "4032"],
    ["height", "3024"],
    ["originalSize", "3481275"],
    ["compressedSize", "912406"],
    ["score", "82.4"],
    ["jobId", "0b6f4c1e-8a51-4a4e-9d0c-5f2b7f0e3a12"],
  ] as const).map(([key, value]) => `${V1_HEADERS[key].toLowerCase()}: ${value}`),
].join("\n");

/** Queue the image, poll the job, fetch the result (jq reads the id out of the 202 answer). */
export function asyncExample(origin: string): string {
  return [
    `JOB_ID=$(curl -sS -X POST "${origin}${V1.compress}?${V1_ASYNC_PARAM}=true&quality=75" \\`,
    `  ${AUTH} \\`,
    `  -H "Content-Type: image/jpeg" \\`,
    `  --data-binary @photo.jpg | jq -r .id)`,
    "",
    `curl -sS "${origin}${withJobVar(V1.job)}" ${AUTH}`,
    "",
    `curl -sS "${origin}${withJobVar(V1.result)}" ${AUTH} -o photo.min.jpg`,
  ].join("\n");
}

export const openapiUrl = (origin: string) => `${origin}${V1.openapi}`;

export const JOB_STATUS_LIST = JOB_STATUSES.join(", ");

/** A Premium target in the query string: the short forms, and the JSON they stand for. */
export const TARGET_FORMS = [
  { short: "auto", json: '{"kind":"auto"}', what: "the smallest file that still looks the same as the original" },
  {
    short: "size:200",
    json: '{"kind":"size","kb":200}',
    what: `the best quality at or under this many KB (${TARGET_KB_RANGE.min}-${TARGET_KB_RANGE.max})`,
  },
  {
    short: "score:85",
    json: '{"kind":"quality","score":85}',
    what: `the smallest file that keeps this SSIMULACRA 2 score (${TARGET_SCORE_RANGE.min}-${TARGET_SCORE_RANGE.max})`,
  },
] as const;

const onOff = "true | false";

/** The values each compression setting takes; what it does is the contract's SETTING_DESCRIPTIONS. */
const SETTING_VALUES: Record<keyof CompressSettings, string> = {
  quality: `${QUALITY_RANGE.min}-${QUALITY_RANGE.max}`,
  format: FORMAT_CHOICES.join(" | "),
  encoder: ENCODERS.join(" | "),
  mode: MODES.join(" | "),
  progressive: onOff,
  chromaSubsampling: CHROMA_SUBSAMPLINGS.join(" | "),
  stripMetadata: onOff,
  mozjpeg: onOff,
  optimizeForWeb: onOff,
  target: "auto | size:KB | score:S, or JSON",
  maxWidth: `${RESIZE_RANGE.min}-${RESIZE_RANGE.max} px`,
  maxHeight: `${RESIZE_RANGE.min}-${RESIZE_RANGE.max} px`,
  fit: FITS.join(" | "),
  widths: `1-${MAX_SET_WIDTHS} widths, e.g. ${DEFAULT_SET_WIDTHS.join(",")}`,
  formats: `${OUTPUT_FORMATS.join(", ")}, comma-separated`,
  archive: onOff,
};

function defaultText(value: unknown): string {
  return value === null ? "none" : String(value);
}

/** Every compression setting, in the web form's names, with its values and default. */
export const SETTING_ROWS = (Object.keys(SETTING_VALUES) as (keyof CompressSettings)[]).map((name) => ({
  name,
  values: SETTING_VALUES[name],
  what: SETTING_DESCRIPTIONS[name],
  default: defaultText(DEFAULT_SAVED_SETTINGS[name]),
}));

const HEADER_DOCS: Record<keyof typeof V1_HEADERS, string> = {
  count: "Compressions your account has used today (UTC), this one included: the web app's and the API's together.",
  width: "The image's width in pixels.",
  height: "The image's height in pixels.",
  originalSize: "The size of the image you sent, in bytes.",
  compressedSize: "The size of the result, in bytes.",
  score: "The result's SSIMULACRA 2 score against the original (higher is closer), when measured before the answer.",
  jobId: "The job's id: the jobs endpoint describes it, as for an async request.",
  formatChoice:
    "With format=auto: the format written and the best other allowed one's bytes at the same score (avif; against=jpeg; against-bytes=123456; measured=true).",
};

export const HEADER_ROWS = (Object.keys(V1_HEADERS) as (keyof typeof V1_HEADERS)[]).map((key) => ({
  name: V1_HEADERS[key],
  what: HEADER_DOCS[key],
}));

export const ERROR_ROWS = [
  {
    status: 400,
    what:
      `A setting is wrong; the message names it ("quality must be a whole number from ${QUALITY_RANGE.min} to ${QUALITY_RANGE.max}").`,
  },
  { status: 401, what: "The Authorization header is missing, or the key is wrong or revoked." },
  { status: 413, what: "The image is larger than your plan allows (file size or pixels)." },
  { status: 415, what: "The body is not a JPEG image." },
  {
    status: 422,
    what:
      "The image could not be compressed, e.g. it is corrupt or truncated; the message says why. (An async job reports this as status error.)",
  },
  {
    status: 429,
    what:
      "Your daily limit is used up, this key sent too many requests at once, or too many wrong keys came from your address. Wait the Retry-After seconds.",
  },
  { status: 503, what: "The server is busy. Try again after the Retry-After seconds." },
] as const;

const megapixels = (pixels: number) => `${pixels / 1_000_000} megapixels`;
const daily = (plan: PlanLimits) =>
  plan.dailyCompressions === null ? "Unlimited" : `${plan.dailyCompressions} a day (UTC)`;

export const PLAN_COLUMNS = [
  { plan: PLANS.free, label: "Free" },
  { plan: PLANS.premium, label: `Premium (${PREMIUM_PRICE_LABEL})` },
] as const;

export const LIMIT_ROWS: { label: string; value: (plan: PlanLimits) => string }[] = [
  { label: "Compressions", value: daily },
  { label: "File size", value: (p) => `Up to ${p.maxFileBytes / MB} MB` },
  { label: "Image size", value: (p) => `Up to ${megapixels(p.maxPixels)}` },
  { label: "Targets (auto, size, score)", value: (p) => (p.targets ? "Yes" : "No") },
  { label: "Queue", value: (p) => (p.priority > 0 ? "Ahead of free work" : "Standard") },
];

/** The CLI's example session. */
export function cliExample(origin: string): string {
  return [
    "export SQUEEZE_API_KEY=sq_live_…",
    `export SQUEEZE_API_URL=${origin}`,
    "",
    "# Every JPEG under photos/, written to photos-min/ with the same folders",
    "deno task cli compress photos/ --out photos-min/ --quality 75",
    "",
    "# Premium: the smallest file that looks the same, one JSON line per file",
    "deno task cli compress hero.jpg banner.jpg --out dist/img --target auto --json",
  ].join("\n");
}

/** The CLI's flags (cli/args.ts holds the same words and checks them). */
export const CLI_OPTIONS = [
  { flag: "--out DIR", what: "Where the results go; a folder given as PATH keeps its layout under DIR." },
  { flag: "--in-place", what: "Replace each input with its result, instead of --out (JPEG output only)." },
  { flag: "--quality N", what: `Quality, ${QUALITY_RANGE.min}-${QUALITY_RANGE.max}.` },
  {
    flag: "--target auto|size:KB|score:S",
    what: "A Premium target, as in the query parameter; score targets try both JPEG encoders.",
  },
  {
    flag: `--format ${FORMAT_CHOICES.join("|")}`,
    what: "The output format; auto writes the smallest of --formats at the target, named by the format it chose.",
  },
  { flag: `--encoder ${ENCODERS.join("|")}`, what: "The JPEG encoder." },
  { flag: "--concurrency N", what: "How many files are in flight at once (1-8, default 2)." },
  { flag: "--json", what: "One JSON object per file and a summary on stdout, instead of the table." },
  { flag: "--key KEY, --url URL", what: "Instead of SQUEEZE_API_KEY and SQUEEZE_API_URL." },
] as const;

/** The CLI's exit statuses, for scripts. */
export const CLI_EXIT_CODES = [
  { code: 0, what: "Every file was compressed." },
  { code: 1, what: "A file failed, or the run stopped: the key was refused or the server could not be reached." },
  { code: 2, what: "A mistake on the command line (the message says which)." },
] as const;
