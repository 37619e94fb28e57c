import { useEffect, useRef } from "react";
import { clearPendingFiles, loadPendingFiles } from "../../../lib/pending-files.ts";

/**
 * Files a visitor picked on the landing page (kept in IndexedDB across sign-up) are handed to
 * `onFiles` once, as soon as the user's remembered settings are loaded, and then forgotten.
 */
export function usePendingUpload(ready: boolean, onFiles: (files: File[]) => void) {
  const done = useRef(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useEffect(() => {
    if (!ready || done.current) return;
    done.current = true;
    void (async () => {
      const files = await loadPendingFiles();
      if (files.length === 0) return;
      await clearPendingFiles();
      latest.current(files);
    })();
  }, [ready]);
}
