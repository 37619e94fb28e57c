/**
 * Lets timers and other requests run before the caller goes on. An upload's work is a chain of promises that
 * resolve at once when its bytes are already in memory (a Blob's parts, a buffered body): without a macrotask
 * between files, reading a 60 MB upload held the server's thread 200-250 ms in one piece, and every poll waited.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
