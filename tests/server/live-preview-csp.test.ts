/**
 * The live preview's worker compiles the codecs' WebAssembly (issue 24, item 1): its script alone is sent with
 * 'wasm-unsafe-eval' (a dedicated worker runs under its own script's CSP); pages keep script-src 'self'.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { securityHeaders, WASM_WORKER_PATH } from "../../server/middleware/security-headers.ts";

const app = new Hono();
app.use(securityHeaders());
app.get("*", (c) => c.text("ok"));
const csp = async (path: string) => (await app.request(path)).headers.get("content-security-policy") ?? "";

Deno.test("only the live preview's worker script may compile WebAssembly", async () => {
  assert.match(await csp("/assets/live-preview.worker-C2Nvqkc9.js"), /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  for (const path of ["/", "/assets/index-B0FQS2M_.js", "/assets/live-preview.worker-x.js.map", "/api/jobs"]) {
    const policy = await csp(path);
    assert.match(policy, /script-src 'self'(;|$)/, path);
    assert.doesNotMatch(policy, /wasm-unsafe-eval/, path);
  }
  assert.ok(!WASM_WORKER_PATH.test("/assets/../live-preview.worker-a.js"));
});

Deno.test("the build names the worker as the CSP expects", () => {
  const dist = new URL("../../web/dist/assets/", import.meta.url);
  let names: string[];
  try {
    names = [...Deno.readDirSync(dist)].map((e) => e.name);
  } catch {
    return; // not built here: the browser test covers it
  }
  const workers = names.filter((n) => n.startsWith("live-preview.worker") && n.endsWith(".js"));
  assert.ok(workers.length >= 1, "the worker is in the build");
  for (const n of workers) assert.ok(WASM_WORKER_PATH.test(`/assets/${n}`), n);
});
