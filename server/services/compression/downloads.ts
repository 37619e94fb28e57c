/** Downloads (DESIGN §5): results, previews and ZIPs, streamed from the byte store. Nothing here writes. */
import { downloadName, type PreviewSize, resultFormat } from "../../../contract/jobs.ts";
import {
  allResultsZipName,
  distinctEntryNames,
  resultBaseName,
  safeFileName,
  versionName,
} from "../../../contract/file-names.ts";
import { SET_MANIFEST_FILE, SET_PICTURE_FILE, type WebSet } from "../../../contract/web-sets.ts";
import { unzipSync } from "fflate";
import type { JobRow } from "../../../db/schema.ts";
import { DomainError } from "../../domain-error.ts";
import type { JobFiles } from "./job-files.ts";
import { isExpired, ownedBatch, ownedJob } from "./owned.ts";
import { utcDay } from "./quota-day.ts";
import type { CompressionReads } from "./reads.ts";
import { batchSettings } from "./views.ts";

/** A stored file as a response serves it: streamed from the byte store. */
export interface FileDownload {
  body: ReadableStream<Uint8Array>;
  size: number;
  mimeType: string;
  name: string;
}

/** A ZIP entry, opened only when the ZIP reaches it (null when its bytes went meanwhile). */
export interface ZipFile {
  name: string;
  open(): Promise<ReadableStream<Uint8Array> | null>;
}

/** Which versions a ZIP holds: each photo's latest (the default) or every version held (`?versions=all`). */
export type ZipVersions = "latest" | "all";

/** Jobs grouped by photo (`sourceJobId ?? id`), each photo's versions oldest first. */
export function groupByPhoto(rows: JobRow[]): Map<string, JobRow[]> {
  const photos = new Map<string, JobRow[]>();
  for (const row of [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq)) {
    const photo = row.sourceJobId ?? row.id;
    photos.set(photo, [...(photos.get(photo) ?? []), row]);
  }
  return photos;
}

export interface DownloadsDeps {
  reads: Pick<
    CompressionReads,
    "findJobOfUser" | "findBatchOfUser" | "findBatches" | "jobsOfBatch" | "listJobsForUser"
  >;
  files: Pick<JobFiles, "get">;
  now: () => number;
}

export class Downloads {
  constructor(private readonly deps: DownloadsDeps) {}

  async download(userId: number, jobId: string): Promise<FileDownload> {
    const row = await ownedJob(this.deps.reads, userId, jobId);
    if (row.status !== "completed") throw new DomainError("conflict", "The job has not completed yet");
    const file = await this.#resultFile(row);
    if (!file) {
      throw new DomainError(
        "gone",
        "This result has expired and was deleted from memory; please upload the image again",
      );
    }
    return file;
  }

  #expired(row: JobRow): boolean {
    return isExpired(row, this.deps.now());
  }

  /** A completed job's result under its download name, or null once its bytes are gone. */
  async #resultFile(row: JobRow): Promise<FileDownload | null> {
    if (this.#expired(row)) return null;
    // A kept original is served from the original itself.
    const result = await this.deps.files.get(row.id, row.keptOriginal ? "original" : "result");
    return result && { ...result, name: this.#resultName(row) };
  }

  /** The download name: the original's base name, `.webp` when converted (a kept original stays a JPEG), `.zip` for a set. */
  #resultName(row: JobRow): string {
    return row.webSetJson ? `${resultBaseName(row.filename)}.zip` : downloadName(row.filename, resultFormat(row));
  }

  /**
   * The ZIP entries of the photos among `rows` (a photo: its first upload, `sourceJobId ?? id`; issue 24
   * item 4), opened one by one while the ZIP streams. By default each photo's latest completed version
   * still held, under the photo's own name; `versions: "all"` gives every held version, each named by
   * its settings (`beach.q70.jpg`). Entry names never get `(2)` suffixes (`distinctEntryNames`).
   */
  async #zipFiles(rows: JobRow[], versions: ZipVersions): Promise<ZipFile[]> {
    const photos = groupByPhoto(rows);
    const held = (row: JobRow) => row.status === "completed" && !this.#expired(row);
    const chosen: { row: JobRow; photo: string; version: number }[] = [];
    for (const [photo, all] of photos) {
      const numbered = all.map((row, i) => ({ row, photo, version: i + 1 })).filter((v) => held(v.row));
      chosen.push(...(versions === "all" ? numbered : numbered.slice(-1)));
    }
    // Newest first, as the job list shows them.
    chosen.sort((a, b) => b.row.createdAt.getTime() - a.row.createdAt.getTime() || b.row.seq - a.row.seq);
    const settings = new Map(
      (await this.deps.reads.findBatches([...new Set(chosen.map((v) => v.row.batchId))])).map((b) => [b.id, b]),
    );
    const names = distinctEntryNames(chosen.map(({ row, photo, version }) => ({
      name: versions === "all"
        ? versionName(row.filename, batchSettings(settings.get(row.batchId)!), resultFormat(row))
        : this.#resultName(row),
      photo,
      uploadedAt: photos.get(photo)![0]!.createdAt,
      position: photos.get(photo)![0]!.seq + 1,
      version,
    })));
    return chosen.flatMap(({ row }, i) =>
      row.webSetJson ? this.#setEntries(row, names[i]!.replace(/\.zip$/, "")) : [{
        name: names[i]!,
        open: async () => (await this.deps.files.get(row.id, row.keptOriginal ? "original" : "result"))?.body ?? null,
      }]
    );
  }

  /**
   * A web set in a ZIP of many photos: its own ZIP's entries under `folder/` (a ZIP inside a ZIP would
   * make people unpack twice). The set's ZIP is read once, when the first of its entries is reached.
   */
  #setEntries(row: JobRow, folder: string): ZipFile[] {
    const set = JSON.parse(row.webSetJson!) as WebSet;
    let entries: Promise<Record<string, Uint8Array> | null> | null = null;
    const unpacked = () =>
      entries ??= this.deps.files.get(row.id, "result").then(async (file) =>
        file && unzipSync(new Uint8Array(await new Response(file.body).arrayBuffer()))
      );
    const names = [...set.files.map((f) => f.file), SET_PICTURE_FILE, SET_MANIFEST_FILE];
    return names.map((name) => ({
      name: `${folder}/${name}`,
      open: async () => {
        const bytes = (await unpacked())?.[`${set.name}/${name}`];
        return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() : null;
      },
    }));
  }

  /** The original, or with `size: "thumb"` the small upright JPEG made while the job ran. */
  async preview(userId: number, jobId: string, size: PreviewSize = "original"): Promise<FileDownload> {
    const row = await ownedJob(this.deps.reads, userId, jobId);
    if (size === "thumb" && row.status !== "completed") {
      throw new DomainError(
        "conflict",
        "The thumbnail is made while the image is processed; this one has not completed yet",
      );
    }
    const file = this.#expired(row)
      ? null
      : await this.deps.files.get(row.id, size === "thumb" ? "thumbnail" : "original");
    if (!file) throw new DomainError("gone", "The original has been deleted from memory");
    // Both are JPEGs, whatever the uploaded name said.
    return { ...file, name: downloadName(row.filename, "jpeg") };
  }

  /** A batch's photos (latest versions, or all with `versions: "all"`), re-compressions made in later batches included. */
  async zipEntries(
    userId: number,
    batchId: string,
    versions: ZipVersions = "latest",
  ): Promise<{ name: string; files: ZipFile[] }> {
    const { reads } = this.deps;
    const batch = await ownedBatch(reads, userId, batchId);
    const own = new Set((await reads.jobsOfBatch(batch.id)).map((r) => r.sourceJobId ?? r.id));
    const rows = (await reads.listJobsForUser(userId)).filter((r) => own.has(r.sourceJobId ?? r.id));
    const files = await this.#zipFiles(rows, versions);
    if (files.length === 0) throw new DomainError("conflict", "This batch has no completed images to download");
    return { name: safeFileName(batch.name).replace(/\.(jpe?g|jfif)$/i, ""), files };
  }

  /** "Download all": each photo's latest result still held (or every version), newest first, as one ZIP. */
  async allResults(userId: number, versions: ZipVersions = "latest"): Promise<{ name: string; files: ZipFile[] }> {
    const files = await this.#zipFiles(await this.deps.reads.listJobsForUser(userId), versions);
    if (files.length === 0) throw new DomainError("conflict", "There are no completed images to download");
    const day = utcDay(this.deps.now());
    return { name: allResultsZipName(day, files.length, versions === "all"), files };
  }
}
