/** The compressor settings a user last saved ("settings remembered per user"). */
import {
  DEFAULT_SAVED_SETTINGS as DEFAULT_SAVED,
  parseStoredSettings,
  type SavedSettings,
  savedSettingsSchema,
} from "../../contract/settings.ts";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { updateUserSettings } from "../../db/queries/users.ts";
import { parseInput } from "./validation.ts";

export function storedSettings(user: UserRow): SavedSettings {
  if (!user.settingsJson) return DEFAULT_SAVED;
  try {
    return parseStoredSettings(user.settingsJson);
  } catch {
    return DEFAULT_SAVED; // a preference, not work: a broken row must not lock the user out of the compressor
  }
}

export async function saveSettings(db: Db, user: UserRow, input: unknown): Promise<SavedSettings> {
  const settings = parseInput(savedSettingsSchema, input);
  await updateUserSettings(db, user.id, JSON.stringify(settings));
  return settings;
}
