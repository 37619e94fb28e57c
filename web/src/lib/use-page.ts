import { useEffect } from "react";

let firstPage = true;

/**
 * For page components: keeps `document.title` right on client-side navigation (prerendered
 * pages already carry it) and starts a newly opened page at the top, as a full load would.
 */
export function usePage(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    if (firstPage) firstPage = false;
    else if (!location.hash) scrollTo(0, 0);
  }, []);
}
