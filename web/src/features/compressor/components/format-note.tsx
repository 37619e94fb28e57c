import { useId } from "react";
import { choiceLabel, losslessOf, OUTPUT_FORMATS } from "../../../../../contract/formats.ts";
import { Toggle } from "../../../components/ui/toggle.tsx";
import type { SettingsSectionProps } from "../lib/settings-facts.ts";
import { FormatChecks } from "./format-checks.tsx";

/** format=auto chooses among lossy encodes: JPEG XL (a JPEG, losslessly) is a set's format, not its choice. */
const AUTO_CHOICES = OUTPUT_FORMATS.filter((f) => !losslessOf(f));

/**
 * What the chosen format means for the outputs: on auto, the formats to choose from and the rule that
 * picks; for a format that carries less metadata than JPEG, what it keeps and drops.
 */
export function FormatNote({ settings, update, premium, facts: { auto, set, metadata } }: SettingsSectionProps) {
  const formatsId = useId();
  if (auto && !set) {
    return (
      <div className="space-y-2 rounded-md bg-slate-100 p-2" data-testid="auto-format">
        <FormatChecks
          id={formatsId}
          label="Formats to choose from"
          formats={settings.formats}
          choices={AUTO_CHOICES}
          onChange={(formats) => update({ formats })}
        />
        <p role="note" className="text-sm text-slate-700" data-testid="format-note">
          Each photo gets the smallest of these formats that reaches {premium && settings.target?.kind === "quality"
            ? `your target score (${settings.target.score})`
            : "SSIMULACRA 2 ≥ 80 (auto)"}; its card says which won and by how much. AVIF and WebP carry less metadata
          than JPEG (WebP none).
        </p>
      </div>
    );
  }
  if (settings.format === "jxl" && !set) {
    return (
      <div className="space-y-2 rounded-md bg-slate-100 p-2" data-testid="jxl-format">
        <p role="note" className="text-sm text-slate-700" data-testid="format-note">
          JPEG XL holds the JPEG these settings make, losslessly: about 20% smaller, the very same pixels, and
          restorable to that JPEG byte for byte (Restore, below the upload). Chrome 155+ and Safari 17+ show it; keep
          the JPEG for other browsers.
        </p>
        <Toggle
          label="Archive the original"
          hint="The uploaded file itself as JPEG XL: no re-encode, no metadata change, restorable to the upload"
          checked={settings.archive}
          onChange={(archive) => update({ archive })}
        />
      </div>
    );
  }
  if (!auto && metadata === "icc-exif") {
    return (
      <p role="note" className="rounded-md bg-slate-100 p-2 text-sm text-slate-700" data-testid="format-note">
        {choiceLabel(settings.format)}{" "}
        output carries the colour profile and, unless stripped, EXIF (orientation applied to the pixels); XMP, IPTC and
        comments are dropped. The JPEG-only options (progressive, MozJPEG, Huffman tables) do not apply.
      </p>
    );
  }
  if (!auto && metadata === "none") {
    return (
      <p role="note" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900" data-testid="format-note">
        {choiceLabel(settings.format)}{" "}
        output drops all metadata: EXIF (including GPS and the camera details), XMP, IPTC, comments and the ICC colour
        profile. The JPEG-only options (progressive, MozJPEG, Huffman tables) do not apply.
      </p>
    );
  }
  return null;
}
