/** The compressor settings a user last saved ("settings remembered per user"). */
import {
  DEFAULT_SAVED_SETTINGS as DEFAULT_SAVED,
  type SavedSettings,
  savedSettingsSchema,
} from "../../contract/settings.ts";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { updateUserSettings } from "../../db/queries/users.ts";
import { parseInput } from "./validation.ts";

export function storedSettings(user: UserRow): SavedSettings {
  if (!user.settingsJson) return DEFAULT_SAVED;
  const parsed = savedSettingsSchema.safeParse({ ...DEFAULT_SAVED, ...JSON.parse(user.settingsJson) });
  return parsed.success ? parsed.data : DEFAULT_SAVED;
}

export async function saveSettings(db: Db, user: UserRow, input: unknown): Promise<SavedSettings> {
  const settings = parseInput(savedSettingsSchema, input);
  await updateUserSettings(db, user.id, JSON.stringify(settings));
  return settings;
}
