/** Retrying calls that failed for a temporary reason (status UNAVAILABLE). */
import { toDeckmateError } from "./errors.js";

/** The settings of a {@link RetryPolicy}; every field is optional. */
export interface RetryPolicyInit {
  /** Attempts in all, the first one included; 1 disables retries. Default 4. */
  maxAttempts?: number;
  /** The pause before the first retry, in milliseconds; each further pause doubles. Default 100. */
  initialBackoffMs?: number;
  /** The longest pause between two attempts, in milliseconds. Default 2000. */
  maxBackoffMs?: number;
}

/**
 * How often and how patiently the client repeats a call that failed with UNAVAILABLE, never
 * pausing less than the server's `RetryInfo` delay (the error's `retryDelay`). Only
 * calls safe to repeat are retried: reads, and CreateGame / Act whose request id the client
 * generated (the retry resends the same id, so the server applies the call at most once).
 */
export class RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly maxAttempts: number;
  /** The pause before the first retry, in milliseconds. */
  readonly initialBackoffMs: number;
  /** The longest pause between two attempts, in milliseconds. */
  readonly maxBackoffMs: number;

  /** A policy; the defaults are 4 attempts pausing 100 ms, 200 ms and 400 ms (at most 2 s). */
  constructor(init: RetryPolicyInit = {}) {
    this.maxAttempts = Math.max(1, Math.floor(init.maxAttempts ?? 4));
    this.initialBackoffMs = Math.max(0, init.initialBackoffMs ?? 100);
    this.maxBackoffMs = Math.max(0, init.maxBackoffMs ?? 2000);
  }

  /** A policy that never retries. */
  static never(): RetryPolicy {
    return new RetryPolicy({ maxAttempts: 1 });
  }

  /** The pause in milliseconds after failed attempt number `failedAttempts` (1 for the first). */
  backoffMs(failedAttempts: number): number {
    const doublings = Math.min(Math.max(failedAttempts - 1, 0), 16);
    return Math.min(this.initialBackoffMs * 2 ** doublings, this.maxBackoffMs);
  }

  /**
   * The pause in milliseconds before the attempt after `failedAttempts` failures ending in
   * `error`: the backoff, or the error's `retryDelay` (the server's `RetryInfo`) when longer.
   */
  pauseMs(failedAttempts: number, error: { readonly retryDelay?: number | undefined }): number {
    return Math.max(this.backoffMs(failedAttempts), error.retryDelay ?? 0);
  }

  /** Whether another attempt may follow `failedAttempts` failures ending in `error`. */
  allowsRetry(failedAttempts: number, error: { readonly retryable: boolean }): boolean {
    return error.retryable && failedAttempts < this.maxAttempts;
  }

  /**
   * Runs `call` until it succeeds, fails for a reason that is not temporary, or the attempts
   * run out; failures are thrown as {@link DeckmateError}s.
   */
  async run<T>(call: () => Promise<T>): Promise<T> {
    let failedAttempts = 0;
    for (;;) {
      try {
        return await call();
      } catch (reason) {
        const error = toDeckmateError(reason);
        failedAttempts += 1;
        if (!this.allowsRetry(failedAttempts, error)) {
          throw error;
        }
        await sleep(this.pauseMs(failedAttempts, error));
      }
    }
  }

  /** Shows the settings. */
  toString(): string {
    return `RetryPolicy(maxAttempts=${this.maxAttempts}, initialBackoffMs=${this.initialBackoffMs}, maxBackoffMs=${this.maxBackoffMs})`;
  }
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
