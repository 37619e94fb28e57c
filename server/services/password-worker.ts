/**
 * Password hashing off the server's thread (ADR 041): one argon2id hash (hash-wasm, 19 MiB, 2 passes) held the
 * event loop 85-90 ms, so every sign-up and sign-in stalled every request in flight, job polls included. One
 * worker, started on first use and kept; its requests queue there in order. A worker that fails rejects what
 * it held and is replaced on the next call.
 */
import { hashPassword, type PasswordHasher, verifyPassword } from "./passwords.ts";

type Ask = { op: "hash"; password: string } | { op: "verify"; password: string; hash: string };
type Request = Ask & { id: number };
type Reply = { id: number; result: string | boolean } | { id: number; error: string };

export interface WorkerPasswords extends PasswordHasher {
  close(): void;
}

export function workerPasswords(): WorkerPasswords {
  let worker: Worker | null = null;
  let nextId = 1;
  let dummy: Promise<string> | null = null;
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    const started = new Worker(import.meta.url, { type: "module" });
    started.onmessage = ({ data }: MessageEvent<Reply>) => {
      const call = pending.get(data.id);
      pending.delete(data.id);
      if (!call) return;
      if ("error" in data) call.reject(new Error(data.error));
      else call.resolve(data.result as never);
    };
    started.onerror = (event) => {
      event.preventDefault();
      started.terminate();
      if (worker === started) worker = null;
      failAll(new Error(`The password worker failed: ${event.message}`));
    };
    return started;
  };
  const ask = <T>(request: Ask): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: never) => void, reject });
      (worker ??= start()).postMessage({ ...request, id } satisfies Request);
    });

  return {
    hash: (password) => ask<string>({ op: "hash", password }),
    verify: (password, hash) => ask<boolean>({ op: "verify", password, hash }),
    dummyHash: () => dummy ??= ask<string>({ op: "hash", password: crypto.randomUUID() }),
    close: () => {
      worker?.terminate();
      worker = null;
      failAll(new Error("The password worker was closed"));
    },
  };
}

// In the worker: hash or verify, one request at a time.
if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  self.onmessage = async ({ data }: MessageEvent<Request>) => {
    try {
      const result = data.op === "hash"
        ? await hashPassword(data.password)
        : await verifyPassword(data.password, data.hash);
      self.postMessage({ id: data.id, result } satisfies Reply);
    } catch (error) {
      self.postMessage({ id: data.id, error: String(error) } satisfies Reply);
    }
  };
}
