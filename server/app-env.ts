import type { Db } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import type { LoginThrottle } from "./services/login-throttle.ts";

/** What the composition root hands to the app; tests build their own. */
export interface AppDeps {
  db: Db;
  throttle: LoginThrottle;
  /** Folder of the built SPA; absent in API-only tests. */
  webDist?: string;
  /** Extra origins allowed to send state-changing requests (PUBLIC_URL). */
  trustedOrigins: string[];
  secureCookies: boolean;
  logRequests: boolean;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: UserRow | null;
    sessionToken: string | null;
  };
}
