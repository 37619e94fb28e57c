import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createQueryClient } from "./api/query-client.ts";
import { App } from "./app/app.tsx";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
