/**
 * Where uploaded images wait (STORE_URL, DESIGN §5 and §8) and what the site tells visitors about it.
 * The server knows the kind from its byte store; the prerendered pages carry it in
 * `<meta name="store-kind">` (one variant of each page per kind, ADR 020), so every statement
 * about images stays true of the running configuration.
 */

export const STORE_KINDS = ["memory", "file", "s3"] as const;

/** `memory` (this process), `file` (a folder on the server's disk) or `s3` (S3-compatible object storage). */
export type StoreKind = (typeof STORE_KINDS)[number];

/** STORE_URL's default, and what a page without the meta tag (Vite's dev server) assumes. */
export const DEFAULT_STORE_KIND: StoreKind = "memory";

/** The `<meta name=…>` that tells the browser which variant it was sent. */
export const STORE_KIND_META = "store-kind";

/** RESULT_TTL_SECONDS's default: what the public pages' "an hour" stands for. */
export const DEFAULT_RESULT_TTL_SECONDS = 3600;

/** The meta tag's content, or the default when it is absent or unknown (a stale or hand-made page). */
export function parseStoreKind(value: string | null | undefined): StoreKind {
  return (STORE_KINDS as readonly string[]).includes(value ?? "") ? value as StoreKind : DEFAULT_STORE_KIND;
}

/**
 * The file of a prerendered HTML page for a store kind: the memory variant keeps the plain name
 * (`privacy/index.html`), the others insert the kind before the extension (`privacy/index.s3.html`).
 */
export function storeVariantPath(path: string, kind: StoreKind): string {
  if (kind === DEFAULT_STORE_KIND) return path;
  const dot = path.lastIndexOf(".");
  if (dot <= path.lastIndexOf("/")) throw new TypeError(`${JSON.stringify(path)} has no extension`);
  return `${path.slice(0, dot)}.${kind}${path.slice(dot)}`;
}

/** A retention time as the site words it: "an hour", "2 hours", "30 minutes", "90 seconds". */
export function retentionPhrase(seconds: number): string {
  const [amount, unit] = seconds % 3600 === 0
    ? [seconds / 3600, "hour"]
    : seconds % 60 === 0
    ? [seconds / 60, "minute"]
    : [seconds, "second"];
  if (amount === 1) return unit === "hour" ? "an hour" : `a ${unit}`;
  return `${amount} ${unit}s`;
}

/** The retention the public pages state (prerendered, so they cannot follow RESULT_TTL_SECONDS). */
export const STATED_RETENTION = retentionPhrase(DEFAULT_RESULT_TTL_SECONDS);

export interface StoreStatements {
  /** One sentence for the landing, about, sign-in and contact pages. */
  short: string;
  /** The privacy page's bold lead for its "Your images" section. */
  privacyLead: string;
  /** The privacy page's precise account: where images wait, who can reach them, when they go. */
  privacy: string;
  /** The privacy page's sentence on images under Security. */
  security: string;
}

const DELETED =
  `deleted automatically ${STATED_RETENTION} after compression, or as soon as you delete the job, whichever comes first`;
const PRECISE_DELETED =
  `They are deleted automatically ${STATED_RETENTION} after the compression finishes, or straight ` +
  "away when you delete the job, whichever comes first.";

/** What the site says about uploaded images, per store kind. Update it with the store's behaviour. */
export const STORE_STATEMENTS: Record<StoreKind, StoreStatements> = {
  memory: {
    short: `Images are processed in server memory, never written to disk, and ${DELETED}.`,
    privacyLead: "Images are processed in memory and deleted automatically.",
    privacy: "The originals you upload and the compressed results are held only in our server's memory, never " +
      "written to disk or to a database; only the server process that received them can reach them. " +
      `${PRECISE_DELETED} A server restart also erases them.`,
    security: "Images never touch the disk.",
  },
  file: {
    short: `Images wait on our server's disk, in a folder that is not published on the web, and are ${DELETED}.`,
    privacyLead: "Images are kept on our server's disk while they wait, and deleted automatically.",
    privacy: "The originals you upload and the compressed results are stored as files on our server's disk, in a " +
      "folder that is not published on the web and that only our server software and the administrators of that " +
      `server can reach; they are never put in a database. ${PRECISE_DELETED} They survive a server restart, so ` +
      "jobs a restart interrupts resume instead of failing.",
    security: "Image files sit in a folder the web server does not publish; only your account can fetch them.",
  },
  s3: {
    short: `Images wait in private cloud storage that only our servers can reach, and are ${DELETED}.`,
    privacyLead: "Images are kept in private cloud storage while they wait, and deleted automatically.",
    privacy: "The originals you upload and the compressed results are stored in a private bucket of S3-compatible " +
      "object storage, never in a database. The bucket is never public: only our servers can read it, with access " +
      "keys that never leave them, and the storage provider keeps the bytes on our behalf. " +
      `${PRECISE_DELETED} They survive a server restart and are shared by our servers, so jobs a restart ` +
      "interrupts resume, on any of them, instead of failing.",
    security: "The image bucket is private and its keys never leave our servers; only your account can fetch images.",
  },
};
