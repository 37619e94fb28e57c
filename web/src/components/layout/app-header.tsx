import { useState } from "react";
import { Link } from "wouter";
import { displayName, isPremium, type User } from "../../../../contract/accounts.ts";
import { paths } from "../../../../contract/routes.ts";
import { Button } from "../ui/button.tsx";
import { MenuToggle } from "./menu-toggle.tsx";

const LINKS = [
  { href: paths.articles, label: "Articles" },
  { href: paths.about, label: "About" },
  { href: paths.privacy, label: "Privacy" },
  { href: paths.contact, label: "Contact" },
];

/** What the header does for the account: sign out, everywhere else too, and whether each is under way. */
export interface AccountActions {
  signOut: () => void;
  signingOut: boolean;
  signOutOthers: () => void;
  signingOutOthers: boolean;
}

/**
 * The signed-in header (spec §2): links, upgrade, who is signed in (with the account's links: Developer
 * for API keys, Sign out other sessions), Sign Out; a menu under 768 px. The app wires it to the account
 * (`app/signed-in-layout.tsx`): a shared component uses no feature.
 */
export function AppHeader({ user, actions }: { user: User; actions: AccountActions }) {
  const [open, setOpen] = useState(false);
  const premium = isPremium(user.subscriptionStatus);

  const account = (
    <>
      {!premium && (
        <Button asChild variant="premium" size="sm">
          <Link href={paths.subscribe}>Upgrade to Premium</Link>
        </Button>
      )}
      <div className="text-right leading-tight" data-testid="account">
        <div className="text-sm font-medium" data-testid="display-name">{displayName(user)}</div>
        <div className="text-xs text-slate-500">{user.email ?? "No email"}</div>
        <div className="flex justify-end gap-2 text-xs">
          <Link href={paths.developers} className="text-brand-700 underline-offset-2 hover:underline">Developer</Link>
          <span aria-hidden="true" className="text-slate-300">·</span>
          <button
            type="button"
            className="text-brand-700 underline-offset-2 hover:underline disabled:opacity-50"
            onClick={actions.signOutOthers}
            disabled={actions.signingOutOthers}
          >
            Sign out other sessions
          </button>
        </div>
      </div>
      <Button variant="secondary" size="sm" onClick={actions.signOut} disabled={actions.signingOut}>
        Sign Out
      </Button>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Link href={paths.home} className="text-lg font-bold text-brand-700">SqueezeJPEG</Link>
        <nav aria-label="Main" className="hidden items-center gap-5 md:flex">
          {LINKS.map((l) => (
            <Link key={l.href} href={l.href} className="text-sm text-slate-600 hover:text-slate-900">{l.label}</Link>
          ))}
        </nav>
        <div className="hidden items-center gap-3 md:flex">{account}</div>
        <MenuToggle open={open} controls="mobile-menu" onToggle={() => setOpen(!open)} />
      </div>
      {open && (
        <div id="mobile-menu" className="space-y-3 border-t border-slate-200 px-4 py-3 md:hidden">
          <nav aria-label="Mobile" className="flex flex-col gap-2">
            {LINKS.map((l) => (
              <Link
                key={l.href}
                href={l.href}
                className="text-slate-700"
                onClick={() => setOpen(false)}
              >
                {l.label}
              </Link>
            ))}
          </nav>
          <div className="flex flex-wrap items-center justify-between gap-3">{account}</div>
        </div>
      )}
    </header>
  );
}
