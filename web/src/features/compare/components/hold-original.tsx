import { type KeyboardEvent, useEffect, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";

/** Keys that a focused control uses for itself: the space bar there is not "hold to see original". */
const OWNS_SPACE = 'button:not([data-hold]), a[href], [role="tab"], input:not([type="range"]), select, textarea';

/**
 * "Hold to see original": held with the button, or the space bar anywhere in the dialog where it is not a
 * control's own key; let go when the window loses focus.
 */
export function useHoldOriginal() {
  const [holding, setHolding] = useState(false);
  useEffect(() => {
    const release = () => setHolding(false);
    addEventListener("blur", release);
    return () => removeEventListener("blur", release);
  }, []);
  return {
    holding,
    setHolding,
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      if (e.key !== " " || (e.target as HTMLElement).closest(OWNS_SPACE)) return;
      e.preventDefault();
      setHolding(true);
    },
    onKeyUp: (e: KeyboardEvent<HTMLElement>) => {
      if (e.key === " ") setHolding(false);
    },
  };
}

/** The button held (pointer, or Enter) to see the original over every pane. */
export function HoldOriginalButton(
  { holding, setHolding }: { holding: boolean; setHolding: (holding: boolean) => void },
) {
  return (
    <Button
      size="sm"
      variant={holding ? "primary" : "secondary"}
      data-hold
      aria-pressed={holding}
      aria-keyshortcuts="Space"
      className="touch-none select-none"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        try {
          e.currentTarget.setPointerCapture(e.pointerId);
        } catch { /* a synthetic pointer cannot be captured */ }
        setHolding(true);
      }}
      onPointerUp={() => setHolding(false)}
      onPointerCancel={() => setHolding(false)}
      onLostPointerCapture={() => setHolding(false)}
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        if (e.key === "Enter") setHolding(true);
      }}
      onKeyUp={(e) => {
        if (e.key === "Enter") setHolding(false);
      }}
    >
      Hold to see original
    </Button>
  );
}
