import { argon2id, argon2Verify } from "hash-wasm";

// OWASP's argon2id baseline (19 MiB, 2 passes): memory-hard, still ~50 ms per hash here.
const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return argon2id({ password, salt, ...PARAMS, outputType: "encoded" });
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return argon2Verify({ password, hash });
}

/**
 * Where sign-up and sign-in hash: on the calling thread (`inlinePasswords`, tests) or in a worker of their own
 * (`password-worker.ts`, the server), since one argon2id hash holds its thread 50-90 ms.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** A valid hash of a random password: lets a login for an unknown user cost the same time. */
  dummyHash(): Promise<string>;
}

export function inlinePasswords(): PasswordHasher {
  let dummy: Promise<string> | null = null;
  return {
    hash: hashPassword,
    verify: verifyPassword,
    dummyHash: () => dummy ??= hashPassword(crypto.randomUUID()),
  };
}
