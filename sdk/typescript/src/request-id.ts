/** Fresh idempotency keys for CreateGame and Act. */

/**
 * A fresh random request id: a version 4 UUID, lowercase and hyphenated. Each logical call gets
 * its own; retries of that call resend the same one. Built from `crypto.getRandomValues`, which
 * browsers offer on plain-HTTP pages too (unlike `crypto.randomUUID`).
 */
export function newRequestId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
