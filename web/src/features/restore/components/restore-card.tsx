import { useId, useRef } from "react";
import { messageOf } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { useRestoreJpeg } from "../data/restore-jpeg.ts";

/**
 * Restore (issue 32, item 4): a .jxl made from a JPEG (by us, with JPEG XL or Archive, or by libjxl's cjxl)
 * gives its original JPEG back, byte for byte. Nothing is stored and nothing is counted.
 */
export function RestoreCard() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const restore = useRestoreJpeg();
  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (file) restore.mutate(file);
    if (input.current) input.current.value = "";
  };
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-2 rounded-lg border border-slate-200 p-3 sm:p-4"
      data-testid="restore-card"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold">Restore a JPEG XL file</h2>
      <p className="text-sm text-slate-600">
        A .jxl made from a JPEG (ours, with JPEG XL or Archive, or libjxl's cjxl) gives its original JPEG back, byte for
        byte. It is not stored and does not count as a compression.
      </p>
      <input
        ref={input}
        id={`${id}-file`}
        type="file"
        accept=".jxl,image/jxl"
        className="sr-only"
        aria-label="Choose a JPEG XL file to restore"
        onChange={(e) => choose(e.target.files)}
      />
      <Button size="sm" variant="secondary" disabled={restore.isPending} onClick={() => input.current?.click()}>
        {restore.isPending ? "Restoring…" : "Restore a .jxl"}
      </Button>
      {restore.isSuccess && (
        <p role="status" className="text-sm text-green-800" data-testid="restore-done">
          Restored: {restore.data} saved
        </p>
      )}
      {restore.isError && (
        <p role="alert" className="text-sm text-red-700" data-testid="restore-error">
          {messageOf(restore.error, "The file could not be restored; please try again")}
        </p>
      )}
    </section>
  );
}
