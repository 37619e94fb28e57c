import "./lib/zod-jitless.ts"; // first: configures zod before any module uses it
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createQueryClient } from "@web-api/query-client.ts";
import { App } from "./app/app.tsx";
import { USER_QUERY_KEY } from "./features/auth/data/get-user.ts";
import { storeKindOf } from "./lib/store-kind.ts";
import "./styles.css";

const root = document.getElementById("root")!;
const queryClient = createQueryClient();
// Public pages arrive prerendered (web/prerender/); other paths get an empty shell.
const prerendered = root.firstElementChild !== null;
// The server sends prerendered pages only to requests without a session cookie: this is a
// visitor, so skip reading the user (it would answer null) and hydrate the visitor's view.
if (prerendered) queryClient.setQueryData(USER_QUERY_KEY, null);
const app = (
  <StrictMode>
    <App queryClient={queryClient} storeKind={storeKindOf(document)} />
  </StrictMode>
);
if (prerendered) hydrateRoot(root, app);
else createRoot(root).render(app);
