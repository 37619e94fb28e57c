import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";

const COPIED_MS = 2000;

/** Copies `text` to the clipboard and says so; when the browser refuses, asks for a manual copy. */
export function CopyButton(
  { text, label = "Copy", failHint, ...props }: { text: string; label?: string; failHint: string } & ButtonProps,
) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast({ title: "Could not copy", description: failHint, variant: "destructive" });
    }
  };
  return (
    <Button type="button" variant="secondary" size="sm" onClick={() => void copy()} {...props}>
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </Button>
  );
}
