//! The deckmate-server binary.

fn main() {}
