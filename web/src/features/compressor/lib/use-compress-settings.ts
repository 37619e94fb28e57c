import { useCallback, useEffect, useRef, useState } from "react";
import { DEFAULT_SAVED_SETTINGS } from "../../../../../contract/settings.ts";
import { type SavedSettings, useSettings, useUpdateSettings } from "../data/settings.ts";
import { savableSettings } from "./compress-settings.ts";

/** Quiet time after the last change before the settings are saved. */
const SAVE_DELAY_MS = 600;

/**
 * The settings the next upload uses: loaded from the server once, edited
 * locally (instant), and saved back after a short pause so a dragged slider
 * sends one request, not fifty.
 */
export function useCompressSettings() {
  const remote = useSettings();
  const save = useUpdateSettings();
  const [settings, setSettings] = useState<SavedSettings>(DEFAULT_SAVED_SETTINGS);
  const touched = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const loaded = remote.data?.settings;
  useEffect(() => {
    if (loaded && !touched.current) setSettings({ ...DEFAULT_SAVED_SETTINGS, ...loaded });
  }, [loaded]);

  const { mutate } = save;
  const latest = useRef(settings);
  latest.current = settings;
  const update = useCallback((patch: Partial<SavedSettings>) => {
    touched.current = true;
    const next = { ...latest.current, ...patch };
    latest.current = next;
    setSettings(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => mutate(savableSettings(next)), SAVE_DELAY_MS);
  }, [mutate]);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  // Ready once the saved settings arrived (or could not be read: the defaults then apply).
  const ready = remote.isError || (remote.isSuccess && (touched.current || latest.current !== DEFAULT_SAVED_SETTINGS));
  return { settings, update, ready, query: remote };
}
