import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { paths } from "../../../contract/routes.ts";
import { AppHeader } from "../components/layout/app-header.tsx";
import { useLogout, useLogoutOthers, useUser } from "../features/auth/index.ts";

/** The first stop of the Tab key on the compressor page: straight past the header to the work. */
function SkipLink() {
  const [location] = useLocation();
  if (location !== paths.home) return null;
  return (
    <a
      href="#compressor"
      className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-brand-700 shadow focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      onClick={(e) => {
        // The target is focused (not just scrolled to), so the next Tab continues inside it.
        e.preventDefault();
        const main = document.getElementById("compressor");
        main?.focus();
        main?.scrollIntoView({ block: "start" });
      }}
    >
      Skip to the compressor
    </a>
  );
}

/** The header wired to the signed-in account (the auth feature): nothing while no one is signed in. */
function SignedInHeader() {
  const { user } = useUser();
  const logout = useLogout();
  const logoutOthers = useLogoutOthers();
  if (!user) return null;
  return (
    <AppHeader
      user={user}
      actions={{
        signOut: () => logout.mutate(),
        signingOut: logout.isPending,
        signOutOthers: () => logoutOthers.mutate(),
        signingOutOthers: logoutOthers.isPending,
      }}
    />
  );
}

/** A signed-in page: the skip link, the header, then the page. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <SignedInHeader />
      {children}
    </>
  );
}
