/** The compressor settings a user last saved ("settings remembered per user"). */
import { z } from "zod";
import { compressSettingsSchema, DEFAULT_SETTINGS } from "../../contract/settings.ts";
import { BATCH_PRIORITIES } from "../../contract/settings.ts";
import { DEFAULT_MAX_CONCURRENT } from "../../contract/plans.ts";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { updateUserSettings } from "../../db/queries/users.ts";
import { parseInput } from "./validation.ts";

export const savedSettingsSchema = compressSettingsSchema.extend({
  priority: z.enum(BATCH_PRIORITIES),
  maxConcurrent: z.number().int().min(1).max(10),
  pauseOnError: z.boolean(),
});
export type SavedSettings = z.infer<typeof savedSettingsSchema>;

export const DEFAULT_SAVED: SavedSettings = {
  ...DEFAULT_SETTINGS,
  priority: "normal",
  maxConcurrent: DEFAULT_MAX_CONCURRENT,
  pauseOnError: false,
};

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
