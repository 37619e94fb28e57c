import { FileStore, MemoryStore, S3Store } from "../../server/store/mod.ts";
import { startS3Server } from "../setup/s3-server.ts";
import { storeContract } from "./contract.ts";

Deno.test("the memory store keeps the byte store contract", async (t) => {
  await storeContract(t, new MemoryStore());
});

Deno.test("the file store keeps the byte store contract in a temp folder", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "file-store-" });
  try {
    const store = new FileStore(dir);
    await store.check();
    await storeContract(t, store);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the S3 store keeps the byte store contract against the S3 test server", async (t) => {
  const s3 = await startS3Server();
  try {
    const store = new S3Store({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
    await store.check();
    await storeContract(t, store);
  } finally {
    await s3.stop();
  }
});
