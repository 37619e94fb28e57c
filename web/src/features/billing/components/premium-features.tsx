/** What Premium adds (spec §1, DESIGN §3). */
export const PREMIUM_FEATURES = [
  "Unlimited compression, no daily limit",
  "Advanced algorithms: target file size and target quality",
  "Priority processing queue",
  "Ad-free experience",
  "Batch processing of up to 100 files",
  "Files up to 25 MB and 100 megapixels",
  "24/7 support",
] as const;

export function PremiumFeatureList() {
  return (
    <ul className="space-y-2" aria-label="Premium features">
      {PREMIUM_FEATURES.map((f) => (
        <li key={f} className="flex items-start gap-2 text-sm text-slate-700">
          <span aria-hidden="true" className="mt-0.5 text-green-600">✓</span>
          {f}
        </li>
      ))}
    </ul>
  );
}
