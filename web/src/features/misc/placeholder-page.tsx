/** Stands in for pages whose issues have not landed yet. */
export function PlaceholderPage({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <main className="mx-auto max-w-4xl px-4 py-12">
      <h1 className="text-3xl font-bold">{title}</h1>
      {children}
    </main>
  );
}
