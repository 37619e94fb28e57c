/** A label/value grid for the sidebar cards; each value carries a test id. */
export type StatRow = readonly [label: string, value: string, testId: string];

export function StatGrid({ rows }: { rows: readonly StatRow[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm">
      {rows.map(([label, value, id]) => (
        <div key={id}>
          <dt className="text-xs text-slate-500">{label}</dt>
          <dd className="font-semibold tabular-nums" data-testid={id}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
