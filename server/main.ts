/** Composition root: env → db → app → Deno.serve; SIGTERM/SIGINT shut down cleanly. */
import { fileURLToPath } from "node:url";
import { createDb } from "../db/client.ts";
import { createApp } from "./app.ts";
import { EnvError, parseEnv } from "./env.ts";
import { LoginThrottle } from "./services/login-throttle.ts";

const WEB_DIST = fileURLToPath(new URL("../web/dist", import.meta.url));

async function ensureWebBuilt(): Promise<void> {
  try {
    await Deno.stat(`${WEB_DIST}/index.html`);
  } catch {
    console.log("web/dist is missing: building the web app first");
    const { success } = await new Deno.Command(Deno.execPath(), { args: ["task", "build"] }).spawn().status;
    if (!success) throw new Error("The web build failed");
  }
}

async function main() {
  let env;
  try {
    env = parseEnv(Deno.env.toObject());
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      Deno.exit(1);
    }
    throw err;
  }
  await ensureWebBuilt();
  const database = await createDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  const publicOrigin = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : null;
  const app = createApp({
    db: database.db,
    throttle: new LoginThrottle(),
    webDist: WEB_DIST,
    trustedOrigins: publicOrigin ? [publicOrigin] : [],
    secureCookies: publicOrigin?.startsWith("https:") ?? false,
    logRequests: env.LOG_REQUESTS,
  });

  const server = Deno.serve({
    port: env.PORT,
    hostname: env.HOST,
    onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}`),
  }, app.fetch);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    await server.shutdown();
    database.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => void stop("SIGINT"));
}

await main();
