import { useEffect, useRef, useState } from "react";

const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes("Files");

/**
 * Files dragged anywhere over the page are taken instead of the browser navigating away to show
 * them. A drop that a drop target below already handled (`preventDefault`) is left to it.
 * `dragging` is true while files are over the window, for a page-wide hint.
 */
export function useWindowDrop(onFiles: (files: File[]) => void, enabled = true): { dragging: boolean } {
  const [dragging, setDragging] = useState(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useEffect(() => {
    if (!enabled) return;
    let depth = 0;
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer && e.dataTransfer.dropEffect === "none" && !e.defaultPrevented) {
        e.dataTransfer.dropEffect = "copy";
      }
    };
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const leave = () => {
      if (depth === 0) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!carriesFiles(e)) return;
      const handled = e.defaultPrevented;
      e.preventDefault();
      if (!handled) latest.current(Array.from(e.dataTransfer?.files ?? []));
    };
    addEventListener("dragenter", enter);
    addEventListener("dragover", over);
    addEventListener("dragleave", leave);
    addEventListener("drop", drop);
    return () => {
      removeEventListener("dragenter", enter);
      removeEventListener("dragover", over);
      removeEventListener("dragleave", leave);
      removeEventListener("drop", drop);
    };
  }, [enabled]);
  return { dragging };
}
