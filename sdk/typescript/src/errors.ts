/**
 * The errors of Deckmate calls: one class per stable `ErrorInfo` reason (the error table of
 * docs/API.md), decoded from the `grpc-status-details-bin` trailer, plus {@link TransportError}.
 */
import { Code, ConnectError } from "@connectrpc/connect";

import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";

/** The `ErrorInfo.domain` of the reasons a Deckmate server sends. */
export const ERROR_DOMAIN = "deckmate";

/** One invalid request field named by a `google.rpc.BadRequest` detail. */
export interface FieldViolation {
  /** The field's path in the request, such as `config.pile_chess.teams`. */
  readonly field: string;
  /** Why the value is invalid. */
  readonly description: string;
}

/**
 * A failed Deckmate call. Branch on the class (or on `reason`), never on the message: the
 * classes follow the server's stable reasons, while messages are written for people.
 */
export class DeckmateError extends Error {
  /** The gRPC status code. */
  readonly code: Code;
  /** The `ErrorInfo` reason, such as `"STALE_VERSION"`; `""` when the status had none. */
  readonly reason: string;
  /** The `ErrorInfo` metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The invalid fields a `google.rpc.BadRequest` detail named, if any. */
  readonly fieldViolations: readonly FieldViolation[];
  /**
   * The pause in milliseconds the server asked for with a `google.rpc.RetryInfo` before trying
   * again (`Overloaded`, `ShuttingDown`, and `LimitReached` for the create rate), or undefined.
   * The client's own retries never pause less.
   */
  readonly retryDelay: number | undefined;
  /**
   * The request id an `act`, `actWith` or `createGame` call was sent with (undefined for other
   * calls). A call that failed with DEADLINE_EXCEEDED, or with a `TransportError` once the
   * retries ran out, may still have taken effect: send it again with this id
   * (`new ActOptions({ requestId })`, `{ requestId }` for `createGame`) and the server applies
   * it at most once.
   */
  requestId: string | undefined;

  /**
   * An error with a status `code`, an `ErrorInfo` `reason` and `metadata`, the server's
   * `message`, the field violations of a `BadRequest` detail and, in `options`, the delay of a
   * `RetryInfo` detail in milliseconds and the request id the call was sent with.
   */
  constructor(
    code: Code,
    reason: string,
    metadata: Readonly<Record<string, string>>,
    message: string,
    fieldViolations: readonly FieldViolation[] = [],
    options?: { cause?: unknown; retryDelay?: number; requestId?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.reason = reason;
    this.metadata = metadata;
    this.fieldViolations = fieldViolations;
    this.retryDelay = options?.retryDelay;
    this.requestId = options?.requestId;
  }

  /**
   * Whether the same request may succeed if sent again after a pause: the status code is
   * UNAVAILABLE, whatever the reason.
   */
  get retryable(): boolean {
    return this.code === Code.Unavailable;
  }
}

/** `INVALID_REQUEST`: a malformed request, an unknown game or enum value, an undecodable action. */
export class InvalidRequest extends DeckmateError {}
/** `GAME_NOT_FOUND`: no game has this id, or it expired. */
export class GameNotFound extends DeckmateError {}
/** `BAD_TOKEN`: the seat token is missing, malformed or wrong, or spectators are not admitted. */
export class BadToken extends DeckmateError {}
/** `NOT_YOUR_TURN`: the seat may not act now. */
export class NotYourTurn extends DeckmateError {}
/** `ILLEGAL_ACTION`: the action is not one of the seat's legal actions. */
export class IllegalAction extends DeckmateError {}
/** `GAME_OVER`: the game has finished. */
export class GameOver extends DeckmateError {}
/** `STORE_UNAVAILABLE`: the server cannot reach its session store; retried automatically. */
export class StoreUnavailable extends DeckmateError {}
/** `OVERLOADED`: the server sheds load; retried automatically, after `retryDelay`. */
export class Overloaded extends DeckmateError {}
/**
 * `LIMIT_REACHED`: a limit (sessions, watchers, message size, create rate) was reached; one that
 * passes with time (the create rate) comes with a `retryDelay`.
 */
export class LimitReached extends DeckmateError {}
/** `INTERNAL`: a server bug; the message is deliberately generic. */
export class Internal extends DeckmateError {}
/**
 * `SHUTTING_DOWN`: the server is draining before it stops; retried automatically, and a watch
 * resumes from the last version it delivered.
 */
export class ShuttingDown extends DeckmateError {}
/** `BAD_API_KEY`: the API key is missing or wrong (seat tokens give {@link BadToken}). */
export class BadApiKey extends DeckmateError {}
/**
 * `REQUEST_ID_REUSED`: the request id was used before, by this caller (for an action: by this
 * seat), for a different request. Send a new request id with a new request.
 */
export class RequestIdReused extends DeckmateError {}
/** `GAME_LOST`: the server's store lost the game (it restarted without its data); it cannot be recovered. */
export class GameLost extends DeckmateError {}

/**
 * `STALE_VERSION`: the action's expected version was not the game's version. Observe again and
 * decide anew.
 */
export class StaleVersion extends DeckmateError {
  /** The game's version when the action was rejected, when the server named it. */
  get currentVersion(): bigint | undefined {
    const value = this.metadata["current_version"];
    return value !== undefined && /^[0-9]+$/.test(value) ? BigInt(value) : undefined;
  }
}

/**
 * The server could not be reached, or the connection broke before an answer arrived. Its
 * `reason` is `""` and its code is usually UNAVAILABLE (so it is retried).
 */
export class TransportError extends DeckmateError {}

/** The error class of each reason. */
const CLASS_BY_REASON: Readonly<Record<string, typeof DeckmateError>> = {
  INVALID_REQUEST: InvalidRequest,
  GAME_NOT_FOUND: GameNotFound,
  BAD_TOKEN: BadToken,
  NOT_YOUR_TURN: NotYourTurn,
  ILLEGAL_ACTION: IllegalAction,
  GAME_OVER: GameOver,
  STALE_VERSION: StaleVersion,
  STORE_UNAVAILABLE: StoreUnavailable,
  OVERLOADED: Overloaded,
  LIMIT_REACHED: LimitReached,
  INTERNAL: Internal,
  SHUTTING_DOWN: ShuttingDown,
  BAD_API_KEY: BadApiKey,
  REQUEST_ID_REUSED: RequestIdReused,
  GAME_LOST: GameLost,
};

/** Error codes of Node.js and its HTTP/2 stack that mean the connection failed or broke. */
const TRANSPORT_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_HTTP2_STREAM_ERROR",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_INVALID_SESSION",
  "ERR_HTTP2_STREAM_CANCEL",
  "ERR_STREAM_PREMATURE_CLOSE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Error codes of TLS handshakes that failed (untrusted or mismatched certificates). */
const TLS_ERROR_CODE = /^ERR_TLS_|^ERR_SSL_|CERT|^UNABLE_TO_|SELF_SIGNED|^DEPTH_ZERO/;

/** Messages of errors raised by connect (not by a server) when a connection broke. */
const TRANSPORT_MESSAGES = [
  /^http\/2 stream closed with error code/,
  /^protocol error: missing (trailer|status|output message)/,
  /^premature end of/,
  /fetch failed/,
  /Failed to fetch/,
  /NetworkError/,
  /network error/i,
  /terminated/,
  /socket hang up/,
];

/** The errors of a cause chain, outermost first. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** Whether `error` comes from a connection that could not be made or that broke. */
function isConnectionFailure(error: ConnectError): boolean {
  for (const link of causeChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === "string" && (TRANSPORT_ERROR_CODES.has(code) || TLS_ERROR_CODE.test(code))) {
      return true;
    }
    const message = link instanceof ConnectError ? link.rawMessage : (link as Error)?.message;
    if (typeof message === "string" && TRANSPORT_MESSAGES.some((pattern) => pattern.test(message))) {
      return true;
    }
  }
  return false;
}

/**
 * The delay in milliseconds of the status's `google.rpc.RetryInfo`, if it has one; undecodable
 * details count as absent.
 */
function retryDelayOf(error: ConnectError): number | undefined {
  try {
    for (const info of error.findDetails(RetryInfoSchema)) {
      if (info.retryDelay !== undefined) {
        const ms = Number(info.retryDelay.seconds) * 1000 + info.retryDelay.nanos / 1e6;
        return Math.max(0, ms);
      }
    }
  } catch {
    // Undecodable details are treated as absent.
  }
  return undefined;
}

/** The Deckmate `ErrorInfo` of a status, ignoring details of other domains. */
function deckmateErrorInfo(error: ConnectError) {
  return error.findDetails(ErrorInfoSchema).find((info) => info.domain === ERROR_DOMAIN);
}

/**
 * Decodes any failure of a call into a {@link DeckmateError}: the `ErrorInfo` reason picks the
 * class (an unknown reason gives a plain `DeckmateError` keeping it); without one, UNAVAILABLE
 * and broken connections give a {@link TransportError}, other codes a plain `DeckmateError`.
 */
export function toDeckmateError(reason: unknown): DeckmateError {
  if (reason instanceof DeckmateError) {
    return reason;
  }
  const error = ConnectError.from(reason);
  const fieldViolations: FieldViolation[] = [];
  let info;
  try {
    info = deckmateErrorInfo(error);
    for (const badRequest of error.findDetails(BadRequestSchema)) {
      for (const violation of badRequest.fieldViolations) {
        fieldViolations.push({ field: violation.field, description: violation.description });
      }
    }
  } catch {
    // Undecodable details are treated as absent.
    info = undefined;
  }
  const retryDelay = retryDelayOf(error);
  const options = retryDelay === undefined ? { cause: reason } : { cause: reason, retryDelay };
  if (info === undefined) {
    if (error.code === Code.Unavailable || isConnectionFailure(error)) {
      return new TransportError(Code.Unavailable, "", {}, error.rawMessage, fieldViolations, options);
    }
    return new DeckmateError(error.code, "", {}, error.rawMessage, fieldViolations, options);
  }
  const metadata: Record<string, string> = { ...info.metadata };
  const ErrorClass = CLASS_BY_REASON[info.reason] ?? DeckmateError;
  return new ErrorClass(error.code, info.reason, metadata, error.rawMessage, fieldViolations, options);
}
