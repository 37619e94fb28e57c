import { useEffect, useRef } from "react";
import type { CompressSettings, Target } from "../../../../../contract/settings.ts";
import type { PreviewEngine, PreviewState } from "./preview-engine.ts";
import type { CropRequest } from "./protocol.ts";

/**
 * Keeps the engine on what is on screen: new settings (or the engine becoming ready) ask for the crop first,
 * then the full-size figures; a pan asks for the crop alone. A target's crop shows what the full-size search
 * chose, once it is known for these settings.
 */
export function useEngineSync(
  { engine, state, settings, target, region, viewWidth }: {
    engine: PreviewEngine;
    state: PreviewState;
    /** The settings as they are sent. */
    settings: CompressSettings;
    /** The form's target (a chosen encoder and quality is followed only with one). */
    target: Target | null;
    region: CropRequest;
    viewWidth: number;
  },
) {
  const ready = state.status === "ready";
  const chosen = state.full && target ? { encoder: state.full.encoder, quality: state.full.chosenQuality } : undefined;
  const key = JSON.stringify(settings);
  useEffect(() => {
    if (ready && viewWidth > 0) engine.update(settings, region);
    // Settings changed (or the engine became ready): the crop first, then the full-size figures.
  }, [engine, ready, key, viewWidth > 0]);
  const regionKey = `${region.x},${region.y},${region.width},${region.height},${chosen?.encoder},${chosen?.quality}`;
  const firstPan = useRef(true);
  useEffect(() => {
    if (!ready || viewWidth === 0) return;
    if (firstPan.current) {
      firstPan.current = false;
      return;
    }
    engine.pan(settings, region, chosen);
  }, [regionKey]);
}
