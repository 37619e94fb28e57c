/**
 * Room for bytes, counted by the app before it stores them (the idea of the former in-memory
 * ByteStore's cap, kept for every backend). For the memory backend the cap is real and per
 * process: `usedBytes` is the MemoryStore's own count. For file and S3 it is a soft cap: the app
 * passes the count it keeps (e.g. from the database), and other instances' uploads in flight are
 * not seen here.
 */
export class ByteBudget {
  /** Room promised to uploads still arriving (see Reservation). */
  #reserved = 0;

  constructor(readonly maxBytes: number, private readonly usedBytes: () => number) {}

  /** Bytes stored plus those promised to uploads in flight. */
  get heldBytes(): number {
    return this.usedBytes() + this.#reserved;
  }

  get reservedBytes(): number {
    return this.#reserved;
  }

  /** Whether `bytes` more fit under the cap right now, counting uploads in flight. */
  hasRoomFor(bytes: number): boolean {
    return this.heldBytes + bytes <= this.maxBytes;
  }

  reserve(): Reservation {
    return new Reservation(this);
  }

  /** Takes `bytes` of room in one synchronous step; false (nothing taken) when they do not fit. */
  tryReserve(bytes: number): boolean {
    if (!this.hasRoomFor(bytes)) return false;
    this.#reserved += bytes;
    return true;
  }

  unreserve(bytes: number): void {
    this.#reserved = Math.max(0, this.#reserved - bytes);
  }
}

/**
 * Room promised to an upload while its body streams in, before its bytes are stored: checking and
 * taking happen in one synchronous step, so parallel uploads can never promise more than the cap.
 */
export class Reservation {
  #bytes = 0;
  #released = false;

  constructor(private readonly budget: ByteBudget) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** Takes `bytes` more; false (and nothing taken) when the budget has no room for them. */
  grow(bytes: number): boolean {
    if (this.#released || !this.budget.tryReserve(bytes)) return false;
    this.#bytes += bytes;
    return true;
  }

  /** Gives the room back; safe to call on every path, more than once. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.budget.unreserve(this.#bytes);
  }
}
