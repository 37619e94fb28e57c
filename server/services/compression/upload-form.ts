/** Reads and validates the multipart fields of POST /api/compress into the one settings shape (ADR 024). */
import {
  DEFAULT_SAVED_SETTINGS,
  type SavedSettings,
  savedSettingsSchema,
  settingsFromFields,
} from "../../../contract/settings.ts";
import { DomainError } from "../../domain-error.ts";
import { parseInput } from "../validation.ts";

export interface UploadForm {
  files: File[];
  /** The fields sent over the defaults; fields not sent take their defaults. */
  settings: SavedSettings;
}

/** Fields and files of a multipart body, repeated names as arrays. */
export type MultipartBody = Record<string, string | File | (string | File)[]>;

/** The field the images arrive in. */
export const IMAGES_FIELD = "images";

export function readUploadForm(body: MultipartBody): UploadForm {
  const raw = body[IMAGES_FIELD];
  const files = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is File => v instanceof File);
  if (files.length === 0) throw new DomainError("invalid_input", "images: attach at least one JPEG file");
  return { files, settings: readUploadSettings(body) };
}

/** The settings the fields read so far give, or null while one of them is invalid (the upload's end answers it). */
export function uploadSettingsSoFar(body: MultipartBody): SavedSettings | null {
  try {
    return readUploadSettings(body);
  } catch {
    return null;
  }
}

/** The settings the body's fields give (those not sent take their defaults); throws on an invalid one. */
export function readUploadSettings(body: MultipartBody): SavedSettings {
  const scalars: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === IMAGES_FIELD) continue;
    const v = Array.isArray(value) ? value[0] : value;
    if (typeof v === "string" && v !== "") scalars[key] = v;
  }
  return parseInput(savedSettingsSchema, { ...DEFAULT_SAVED_SETTINGS, ...settingsFromFields(scalars) });
}
