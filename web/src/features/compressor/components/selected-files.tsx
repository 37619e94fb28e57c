import { memo } from "react";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { cn } from "../../../lib/cn.ts";

/** The selected list: each file with its size, marked when past today's quota, removable. */
export function SelectedFiles(
  { files, remaining, disabled, setFiles }: {
    files: File[];
    /** How many more images today's quota takes: the files past it are marked. */
    remaining: number;
    disabled: boolean;
    setFiles: (update: (prev: File[]) => File[]) => void;
  },
) {
  return (
    <ul
      className="max-h-40 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
      aria-label="Selected files"
    >
      {files.map((f, i) => (
        <SelectedRow
          key={`${f.name}-${f.size}-${f.lastModified}-${i}`}
          file={f}
          disabled={disabled}
          overQuota={i >= remaining}
          onRemove={() => setFiles((prev) => prev.filter((_, j) => j !== i))}
        />
      ))}
    </ul>
  );
}

const SelectedRow = memo(function SelectedRow(
  { file, disabled, overQuota, onRemove }: {
    file: File;
    disabled: boolean;
    /** Past today's quota: it will not be sent. */
    overQuota: boolean;
    onRemove: () => void;
  },
) {
  return (
    <li
      className={cn("flex items-center justify-between gap-3 px-3 py-1.5 text-sm", overQuota && "bg-amber-50")}
      data-over-quota={overQuota || undefined}
    >
      <span className="min-w-0 flex-1 truncate" title={file.name}>{file.name}</span>
      {overQuota && (
        <span className="shrink-0 text-xs font-medium text-amber-800" data-testid="over-quota">
          Over today's limit
        </span>
      )}
      <span className="shrink-0 text-slate-500">{formatBytes(file.size)}</span>
      <button
        type="button"
        className="shrink-0 rounded px-1.5 text-slate-500 hover:bg-slate-100 hover:text-red-600"
        aria-label={`Remove ${file.name}`}
        disabled={disabled}
        onClick={onRemove}
      >
        ×
      </button>
    </li>
  );
});
