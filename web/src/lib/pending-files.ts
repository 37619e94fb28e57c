/**
 * Files a visitor picked on the landing page before signing in (spec §2, DESIGN §7):
 * their list (name, size, type) in sessionStorage under `pendingFiles`, as the spec says,
 * and the File objects themselves in IndexedDB so they can be uploaded after sign-in.
 * Storage can be unavailable (private windows, quotas): every function then degrades
 * to "nothing pending" instead of throwing.
 */
export const PENDING_FILES_KEY = "pendingFiles";
const DB_NAME = "squeezejpeg";
const STORE = "pending-files";
const RECORD = "files";

export interface PendingFileInfo {
  name: string;
  size: number;
  type: string;
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === "undefined") return reject(new Error("IndexedDB is not available"));
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("Cannot open IndexedDB"));
  });
}

async function withStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = use(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
    });
  } finally {
    db.close();
  }
}

/** The list saved in sessionStorage, or [] when there is none or it is unreadable. */
export function readPendingFileInfo(): PendingFileInfo[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(PENDING_FILES_KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((f): f is PendingFileInfo =>
      typeof f?.name === "string" && typeof f?.size === "number" && typeof f?.type === "string"
    );
  } catch {
    return [];
  }
}

/** Remembers `files`; the list always lands in sessionStorage, the bytes when IndexedDB works. */
export async function savePendingFiles(files: File[]): Promise<void> {
  const info: PendingFileInfo[] = files.map((f) => ({ name: f.name, size: f.size, type: f.type }));
  try {
    sessionStorage.setItem(PENDING_FILES_KEY, JSON.stringify(info));
  } catch { /* storage full or blocked: the list is a convenience */ }
  try {
    await withStore("readwrite", (store) => store.put(files, RECORD));
  } catch (err) {
    console.warn("Could not keep the picked files for after sign-in:", err);
  }
}

/** The saved files that still match the saved list (a stale IndexedDB record from another tab is ignored). */
export async function loadPendingFiles(): Promise<File[]> {
  const info = readPendingFileInfo();
  if (info.length === 0) return [];
  try {
    const stored = await withStore<unknown>("readonly", (store) => store.get(RECORD));
    if (!Array.isArray(stored)) return [];
    const files = stored.filter((f): f is File => f instanceof File);
    const matches = (f: File) => info.some((i) => i.name === f.name && i.size === f.size);
    return files.filter(matches);
  } catch {
    return [];
  }
}

/** Forgets the picked files (after they were uploaded or declined). */
export async function clearPendingFiles(): Promise<void> {
  try {
    sessionStorage.removeItem(PENDING_FILES_KEY);
  } catch { /* nothing to clear */ }
  try {
    await withStore("readwrite", (store) => store.delete(RECORD));
  } catch { /* nothing to clear */ }
}
