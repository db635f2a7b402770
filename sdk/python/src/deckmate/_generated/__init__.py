"""Generated protobuf and gRPC modules (private; use deckmate.pb)."""
