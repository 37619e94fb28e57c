import { Link } from "wouter";
import { paths } from "../../../../contract/routes.ts";

export function NotFoundPage() {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link href={paths.home} className="font-medium text-brand-700 underline">Go to the home page</Link>
    </main>
  );
}
