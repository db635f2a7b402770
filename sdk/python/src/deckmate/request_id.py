"""Request ids: the idempotency keys of `CreateGame` and `Act`."""

import uuid


def new_request_id() -> str:
    """Return a fresh random request id: a lowercase hyphenated UUID version 4."""
    return str(uuid.uuid4())
