import assert from "node:assert/strict";
import { jobKey, S3Store, StoreError } from "../../server/store/mod.ts";
import { type RunningS3, startS3Server } from "../setup/s3-server.ts";
import { readAll } from "./contract.ts";

function storeFor(s3: RunningS3, overrides: Partial<ConstructorParameters<typeof S3Store>[0]> = {}): S3Store {
  return new S3Store({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    ...overrides,
  });
}

Deno.test("the S3 store addresses objects path-style at a custom endpoint and virtual-hosted on AWS", () => {
  const custom = new S3Store({
    bucket: "squeeze",
    endpoint: "http://127.0.0.1:9000/",
    region: "auto",
    accessKeyId: "k",
    secretAccessKey: "s",
  });
  assert.equal(custom.urlOf("jobs/j1/original"), "http://127.0.0.1:9000/squeeze/jobs/j1/original");
  const aws = new S3Store({ bucket: "squeeze", region: "eu-west-1", accessKeyId: "k", secretAccessKey: "s" });
  assert.equal(aws.urlOf("jobs/j1/original"), "https://squeeze.s3.eu-west-1.amazonaws.com/jobs/j1/original");
  assert.doesNotMatch(custom.description + aws.description, /\bs\b.*\bk\b/, "no secrets in the description");
});

Deno.test("the S3 store talks to the test server path-style and with an unknown key fails naming the variables", async (t) => {
  const s3 = await startS3Server();
  try {
    await t.step("an object put through the store sits at ENDPOINT/BUCKET/KEY", async () => {
      const store = storeFor(s3);
      await store.put(jobKey("j1", "original"), new Uint8Array([1, 2, 3]), { contentType: "image/jpeg" });
      // The test server serves anonymous reads: fetch the path-style URL without signing.
      const res = await fetch(`${s3.endpoint}/${s3.bucket}/jobs/j1/original`);
      assert.equal(res.status, 200);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), new Uint8Array([1, 2, 3]));
      assert.equal(res.headers.get("content-type"), "image/jpeg");
    });

    await t.step("an unknown access key is refused with the server's reason and the variables to check", async () => {
      const store = storeFor(s3, { accessKeyId: "NOBODY" });
      const err = await store.put(jobKey("j2", "original"), new Uint8Array([1]), { contentType: "image/jpeg" })
        .then(() => null, (e: unknown) => e);
      assert.ok(err instanceof StoreError, String(err));
      assert.equal(err.status, 403);
      assert.match(err.message, /InvalidAccessKeyId/);
      assert.match(err.message, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
      await assert.rejects(store.get(jobKey("j1", "original")), /InvalidAccessKeyId.*S3_ACCESS_KEY_ID/s);
      await assert.rejects(store.head(jobKey("j1", "original")), /403.*S3_ACCESS_KEY_ID/s);
    });

    await t.step("a missing bucket says so", async () => {
      await assert.rejects(storeFor(s3, { bucket: "no-such-bucket" }).check(), /NoSuchBucket.*Create the bucket/s);
    });

    await t.step("an endpoint nobody answers at says which one", async () => {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (listener.addr as Deno.NetAddr).port;
      listener.close();
      await assert.rejects(
        storeFor(s3, { endpoint: `http://127.0.0.1:${port}` }).check(),
        new RegExp(`cannot reach http://127.0.0.1:${port}`),
      );
    });

    await t.step("a get streams the body as the server sends it", async () => {
      const got = await storeFor(s3).get(jobKey("j1", "original"));
      assert.ok(got);
      assert.equal(got.size, 3);
      assert.deepEqual((await readAll(got.body)).bytes, new Uint8Array([1, 2, 3]));
    });
  } finally {
    await s3.stop();
  }
});

Deno.test("a wrong secret key is reported with S3's reason and the variables to check, never the secret", async () => {
  // s3rver checks the access key id but not SigV4 signatures: this server answers as AWS S3 does.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    return new Response(
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request ' +
        "signature we calculated does not match the signature you provided. Check your key and signing method." +
        "</Message></Error>",
      { status: 403, headers: { "content-type": "application/xml" } },
    );
  });
  try {
    const store = new S3Store({
      bucket: "squeeze",
      endpoint: `http://127.0.0.1:${server.addr.port}`,
      region: "us-east-1",
      accessKeyId: "AKIAEXAMPLE",
      secretAccessKey: "not-the-secret",
    });
    const err = await store.put(jobKey("j1", "original"), new Uint8Array([1]), { contentType: "image/jpeg" })
      .then(() => null, (e: unknown) => e);
    assert.ok(err instanceof StoreError, String(err));
    assert.equal(err.status, 403);
    assert.match(err.message, /^S3 PUT jobs\/j1\/original in bucket squeeze: 403 SignatureDoesNotMatch The request/);
    assert.match(err.message, /Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    assert.doesNotMatch(err.message, /not-the-secret/);
    await assert.rejects(store.check(), /SignatureDoesNotMatch/);
  } finally {
    await server.shutdown();
  }
});
