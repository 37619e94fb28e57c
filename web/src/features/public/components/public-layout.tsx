import { PublicFooter } from "./public-footer.tsx";
import { PublicHeader } from "./public-header.tsx";

/** Header, the page's <main>, footer: the frame of the landing and information pages. */
export function PublicLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <main id="main" className="flex-1">{children}</main>
      <PublicFooter />
    </div>
  );
}
