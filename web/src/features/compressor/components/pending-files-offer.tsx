import { useEffect, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { formatBytes } from "../../../lib/format-bytes.ts";
import { clearPendingFiles, loadPendingFiles } from "../../public/pending-files.ts";

/**
 * Files picked on the landing page before sign-in (kept in IndexedDB by the
 * public site): offer to add them to the selection, or forget them.
 */
export function PendingFilesOffer({ onAccept }: { onAccept: (files: File[]) => void }) {
  const [files, setFiles] = useState<File[]>([]);
  useEffect(() => {
    let live = true;
    void loadPendingFiles().then((found) => live && setFiles(found));
    return () => {
      live = false;
    };
  }, []);
  if (files.length === 0) return null;
  const forget = () => {
    setFiles([]);
    void clearPendingFiles();
  };
  const total = files.reduce((s, f) => s + f.size, 0);
  return (
    <section
      aria-label="Files picked before sign-in"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm"
      data-testid="pending-files-offer"
    >
      <p>
        You picked <strong>{files.length} file{files.length === 1 ? "" : "s"}</strong>{" "}
        ({formatBytes(total)}) before signing in. Add them to your upload?
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          onClick={() => {
            onAccept(files);
            forget();
          }}
        >
          Add files
        </Button>
        <Button size="sm" variant="ghost" onClick={forget}>Dismiss</Button>
      </div>
    </section>
  );
}
