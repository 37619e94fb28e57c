export * from "./types.ts";
export { ByteBudget, Reservation } from "./budget.ts";
export { MemoryStore } from "./memory.ts";
export { FileStore } from "./file.ts";
export { S3Store, type S3StoreOptions } from "./s3.ts";
export { openStore, parseStoreUrl, type StoreConfig, type StoreEnv, StoreUrlError } from "./from-url.ts";
export { type SweepOptions, sweepStoredBefore } from "./retention.ts";
