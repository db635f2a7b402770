/** Fresh idempotency keys for CreateGame and Act. */

/**
 * A fresh random request id: a version 4 UUID, lowercase and hyphenated. Each logical call gets
 * its own; retries of that call resend the same one.
 */
export function newRequestId(): string {
  return globalThis.crypto.randomUUID();
}
