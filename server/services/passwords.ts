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

/** A valid hash of a random password: lets a login for an unknown user cost the same time. */
export const dummyHash: Promise<string> = hashPassword(crypto.randomUUID());
