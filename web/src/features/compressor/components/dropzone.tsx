import { type DragEvent, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { cn } from "../../../lib/cn.ts";
import { ACCEPT_ATTRIBUTE, dragIsInvalid, limitLabel, type UploadLimits } from "../../../lib/validate-files.ts";

type DragState = "idle" | "valid" | "invalid";

const HEADINGS: Record<DragState, string> = {
  idle: "Drag & drop JPEG images here",
  valid: "Drop the images to compress them",
  invalid: "Invalid file type or size",
};

/**
 * Drop or pick JPEGs; what happens to them is the caller's job (see validate-files.ts).
 * `pageDrag`: files are being dragged somewhere over the page (they are taken there too).
 */
export function Dropzone(
  { limits, selectedCount, disabled, pageDrag, onFiles }: {
    limits: UploadLimits;
    selectedCount: number;
    disabled?: boolean;
    pageDrag?: boolean;
    onFiles: (files: File[]) => void;
  },
) {
  const input = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [drag, setDrag] = useState<DragState>("idle");

  const judge = (e: DragEvent) => (dragIsInvalid(e.dataTransfer.items, selectedCount, limits) ? "invalid" : "valid");
  const onDragEnter = (e: DragEvent) => {
    e.preventDefault();
    depth.current++;
    setDrag(judge(e));
  };
  const onDragOver = (e: DragEvent) => {
    e.preventDefault();
    const state = judge(e);
    e.dataTransfer.dropEffect = state === "invalid" ? "none" : "copy";
    setDrag(state);
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDrag("idle");
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    depth.current = 0;
    setDrag("idle");
    if (!disabled) onFiles(Array.from(e.dataTransfer.files));
  };

  return (
    <div
      data-testid="dropzone"
      data-drag={drag}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      onClick={(e) => {
        if (e.target === e.currentTarget && !disabled) input.current?.click();
      }}
      className={cn(
        "flex min-h-28 flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed p-3 text-center transition-colors sm:min-h-36 sm:p-4",
        drag === "invalid" && "border-red-500 bg-red-50",
        drag === "valid" && "border-brand-600 bg-brand-50",
        drag === "idle" && (pageDrag ? "border-brand-600 bg-brand-50/60" : "border-slate-300 bg-white"),
      )}
    >
      <p
        className={cn("text-sm font-semibold sm:text-base", drag === "invalid" ? "text-red-700" : "text-slate-800")}
        aria-live="polite"
        data-testid="dropzone-heading"
      >
        {drag === "idle" && pageDrag ? "Drop the images anywhere on this page" : HEADINGS[drag]}
      </p>
      <p className="text-xs text-slate-500 sm:text-sm">
        JPEG only (.jpg, .jpeg), up to {limitLabel(limits.maxFileBytes)} each, {limits.maxFiles} files per upload
      </p>
      <Button type="button" variant="secondary" disabled={disabled} onClick={() => input.current?.click()}>
        Select images
      </Button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT_ATTRIBUTE}
        multiple
        aria-label="Choose JPEG images"
        hidden
        tabIndex={-1}
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []));
          // Let the same file be picked again after it was removed.
          e.target.value = "";
        }}
      />
    </div>
  );
}
