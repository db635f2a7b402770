"""`RetryPolicy`: how often and how patiently calls that failed temporarily are repeated.

Only calls safe to repeat are retried: reads (ListVariants, Observe, GetHistory, Watch
reconnects), and CreateGame / Act when the client chose the request id (a retry resends the same
id, so the server applies it at most once). A call carrying a caller-chosen request id is sent
once: its caller owns the retries.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckmate.errors import DeckmateError


@dataclass(frozen=True)
class RetryPolicy:
    """Attempts and pauses for retried calls; the default makes 4 attempts, pausing 0.1, 0.2, 0.4 s.

    `max_attempts` counts every attempt, the first included (1 disables retries);
    `initial_backoff` is the pause in seconds before the first retry, each further pause
    doubling up to `max_backoff` seconds. A pause is never shorter than the delay the server
    asked for with a `google.rpc.RetryInfo` (the error's `retry_delay`).
    """

    max_attempts: int = 4
    initial_backoff: float = 0.1
    max_backoff: float = 2.0

    @staticmethod
    def never() -> RetryPolicy:
        """Return a policy that never retries."""
        return RetryPolicy(max_attempts=1)

    def backoff(self, failed_attempts: int) -> float:
        """Return the pause in seconds after failed attempt number `failed_attempts` (from 1)."""
        doublings = min(max(failed_attempts - 1, 0), 16)
        return float(min(self.initial_backoff * (2**doublings), self.max_backoff))

    def allows_retry(self, failed_attempts: int, error: DeckmateError) -> bool:
        """Whether another attempt may follow `failed_attempts` failures ending in `error`."""
        return error.retryable and failed_attempts < self.max_attempts

    def pause_before_retry(self, failed_attempts: int, error: DeckmateError) -> float | None:
        """Return the pause in seconds before the next attempt, or None when the error is final.

        The pause is the backoff, or the error's `retry_delay` (the server's `RetryInfo`) when
        that is longer.
        """
        if not self.allows_retry(failed_attempts, error):
            return None
        return max(self.backoff(failed_attempts), error.retry_delay or 0.0)
