import { createContext, useContext } from "react";
import {
  DEFAULT_STORE_KIND,
  parseStoreKind,
  STORE_KIND_META,
  STORE_STATEMENTS,
  type StoreKind,
  type StoreStatements,
} from "../../../contract/storage.ts";

/**
 * The server's byte store kind (ADR 020). The prerenderer renders each page once per kind and
 * provides it here; the browser reads it back from the page's `<meta name="store-kind">`, so
 * hydration renders the same statements the HTML holds.
 */
export const StoreKindContext = createContext<StoreKind>(DEFAULT_STORE_KIND);

/** The kind the page was served for; the default when the tag is absent (Vite's dev server). */
export function storeKindOf(doc: Document): StoreKind {
  return parseStoreKind(doc.querySelector(`meta[name="${STORE_KIND_META}"]`)?.getAttribute("content"));
}

export function useStoreKind(): StoreKind {
  return useContext(StoreKindContext);
}

/** What to say about uploaded images under the running store. */
export function useStoreStatements(): StoreStatements {
  return STORE_STATEMENTS[useStoreKind()];
}
