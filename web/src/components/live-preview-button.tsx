import { Button } from "./ui/button.tsx";

/** Opens and closes a job's Live preview panel: the same button on the job card and in Compare. */
export function LivePreviewButton(
  { filename, open, onToggle, disabled }: { filename: string; open: boolean; onToggle: () => void; disabled?: boolean },
) {
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-expanded={open}
      aria-label={`Live preview ${filename}`}
      onClick={onToggle}
      disabled={disabled}
    >
      Live preview
    </Button>
  );
}
