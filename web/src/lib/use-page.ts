import { useEffect } from "react";

let firstPage = true;

/**
 * For page components: keeps `document.title` right on client-side navigation (prerendered
 * pages already carry it) and starts a newly opened page at the top, or at its #section, as a full load would.
 */
export function usePage(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    const first = firstPage;
    firstPage = false;
    // A link to a section (/about#scores) opens the page there, also after client-side navigation.
    const section = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (section) section.scrollIntoView();
    else if (!first) scrollTo(0, 0);
  }, []);
}
