import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "../setup/app-harness.ts";

Deno.test("GET /healthz answers 200 {ok:true}", async () => {
  const t = await createTestApp();
  const res = await t.request("/healthz");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { ok: true });
  await t.close();
});

Deno.test("an unknown /api path answers a JSON 404, never the SPA", async () => {
  const dist = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dist, "index.html"), "<!doctype html><div id=root></div>");
  const t = await createTestApp({ webDist: dist });
  for (const method of ["GET", "POST", "DELETE"]) {
    const res = await t.request("/api/does-not-exist", { method });
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.match((await res.json()).error, /No API route/);
  }
  await t.close();
});

Deno.test("responses carry the security headers", async () => {
  const t = await createTestApp();
  const res = await t.request("/healthz");
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
  await t.close();
});

Deno.test("the site serves pages, prerendered HTML, assets, and a 404 shell for unknown paths", async () => {
  const dist = await Deno.makeTempDir();
  await Deno.mkdir(join(dist, "about"));
  await Deno.mkdir(join(dist, "assets"));
  await Deno.writeTextFile(join(dist, "index.html"), "<!doctype html><title>shell</title>");
  await Deno.writeTextFile(join(dist, "about", "index.html"), "<!doctype html><title>about</title>");
  await Deno.writeTextFile(join(dist, "assets", "app-abc.js"), "console.log(1)");
  const t = await createTestApp({ webDist: dist });

  const about = await t.request("/about");
  assert.equal(about.status, 200);
  assert.match(await about.text(), /<title>about<\/title>/);

  const auth = await t.request("/auth");
  assert.equal(auth.status, 200);
  assert.match(await auth.text(), /shell/);

  const missing = await t.request("/no-such-page");
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /shell/);

  const asset = await t.request("/assets/app-abc.js");
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get("content-type") ?? "", /javascript/);
  assert.match(asset.headers.get("cache-control") ?? "", /immutable/);

  const traversal = await t.request("/assets/../../../../etc/passwd");
  assert.notEqual(traversal.status, 200);
  await t.close();
});
