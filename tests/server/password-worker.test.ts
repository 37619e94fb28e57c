/** Password hashing in a worker of its own (server/services/password-worker.ts, ADR 041). */
import assert from "node:assert/strict";
import { workerPasswords } from "../../server/services/password-worker.ts";
import { verifyPassword } from "../../server/services/passwords.ts";

Deno.test("the worker's hashes are argon2id hashes this thread verifies, and it verifies them itself", async () => {
  const passwords = workerPasswords();
  try {
    const hash = await passwords.hash("correct horse");
    assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(await verifyPassword("correct horse", hash), true);
    assert.equal(await passwords.verify("correct horse", hash), true);
    assert.equal(await passwords.verify("wrong horse", hash), false);
    assert.equal(await passwords.verify("anything", await passwords.dummyHash()), false);
  } finally {
    passwords.close();
  }
});

Deno.test("while the worker hashes, this thread's timers run", async () => {
  const passwords = workerPasswords();
  try {
    await passwords.hash("warm up"); // the worker and hash-wasm loaded
    // A hash holds its thread 50-90 ms: on this thread, the 1 ms timer could only fire after it.
    const first = await Promise.race([
      passwords.hash("correct horse").then(() => "hash"),
      new Promise((resolve) => setTimeout(() => resolve("timer"), 1)),
    ]);
    assert.equal(first, "timer");
  } finally {
    passwords.close();
  }
});

Deno.test("closing fails what the worker held; the next call starts a new one", async () => {
  const passwords = workerPasswords();
  try {
    const held = passwords.hash("correct horse");
    passwords.close();
    await assert.rejects(held, /closed/);
    assert.equal(await passwords.verify("correct horse", await passwords.hash("correct horse")), true);
  } finally {
    passwords.close();
  }
});
