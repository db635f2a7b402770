/** Hand-written protobuf and gRPC framing bytes for the scripted servers. */

/** A protobuf varint. */
export function varint(value: number | bigint): Buffer {
  let rest = BigInt(value);
  const bytes: number[] = [];
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) {
      byte |= 0x80;
    }
    bytes.push(byte);
  } while (rest > 0n);
  return Buffer.from(bytes);
}

/** A varint field. */
export function varintField(field: number, value: number | bigint): Buffer {
  return Buffer.concat([varint((field << 3) | 0), varint(value)]);
}

/** A length-delimited field (string, bytes or nested message). */
export function bytesField(field: number, value: Buffer | string): Buffer {
  const payload = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
}

/** One gRPC length-prefixed message frame (uncompressed). */
export function frame(message: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(0, 0);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

/** The messages of a gRPC request body. */
export function unframe(body: Buffer): Buffer[] {
  const messages: Buffer[] = [];
  let offset = 0;
  while (offset + 5 <= body.length) {
    const length = body.readUInt32BE(offset + 1);
    messages.push(body.subarray(offset + 5, offset + 5 + length));
    offset += 5 + length;
  }
  return messages;
}

/** A `google.rpc.Status` carrying one `ErrorInfo`, as `grpc-status-details-bin` sends it. */
export function statusWithErrorInfo(
  code: number,
  message: string,
  reason: string,
  domain: string,
  metadata: Record<string, string> = {},
): Buffer {
  const entries = Object.entries(metadata).map(([key, value]) =>
    bytesField(3, Buffer.concat([bytesField(1, key), bytesField(2, value)])),
  );
  const info = Buffer.concat([bytesField(1, reason), bytesField(2, domain), ...entries]);
  const any = Buffer.concat([bytesField(1, "type.googleapis.com/google.rpc.ErrorInfo"), bytesField(2, info)]);
  return Buffer.concat([varintField(1, code), bytesField(2, message), bytesField(3, any)]);
}

/** A `google.rpc.Status` carrying an `ErrorInfo` and a `RetryInfo` asking for `delayMs`. */
export function statusWithRetryInfo(code: number, message: string, reason: string, delayMs: number): Buffer {
  const seconds = Math.floor(delayMs / 1000);
  const nanos = (delayMs % 1000) * 1_000_000;
  const duration = Buffer.concat([varintField(1, seconds), varintField(2, nanos)]);
  const retryInfo = bytesField(1, duration);
  const any = Buffer.concat([bytesField(1, "type.googleapis.com/google.rpc.RetryInfo"), bytesField(2, retryInfo)]);
  return Buffer.concat([statusWithErrorInfo(code, message, reason, "deckmate"), bytesField(3, any)]);
}
