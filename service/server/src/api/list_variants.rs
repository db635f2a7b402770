//! `ListVariants`: every hosted game with its seat counts, default config and rule summary.

use deckmate_proto::v1 as pb;

use crate::catalog;

pub(super) fn handle() -> pb::ListVariantsResponse {
    pb::ListVariantsResponse {
        variants: catalog::variants(),
    }
}
