//! [`register_games!`], the macro behind the one list of hosted games in `games/mod.rs`.
//!
//! A game is registered by one line there: `Kind => module::GameType`. From that line come the
//! module declaration, the [`crate::GameKind`] variant, its place in [`crate::GameKind::ALL`] and
//! its arm of `with_game!`, so nothing else in the crate names a game (the registry's methods in
//! `registry.rs` are written once over `with_game!`).

/// Declares the game modules and generates `GameKind`, `GameKind::ALL` and `with_game!`.
///
/// The first token is a literal `$`: the generated `with_game!` needs its own metavariables,
/// which a `macro_rules!` body can only write through a `$` handed in by its caller.
macro_rules! register_games {
    ($d:tt $( $(#[$attr:meta])* $kind:ident => $module:ident :: $game:ident ),+ $(,)?) => {
        $( pub mod $module; )+

        /// A hosted game (registered in `games/mod.rs`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $( $(#[$attr])* $kind, )+
        }

        impl GameKind {
            /// Every hosted game, in the order `ListVariants` shows them.
            pub const ALL: &'static [GameKind] = &[ $( GameKind::$kind, )+ ];
        }

        /// Runs `$body` with `$G` bound to the [`Game`](crate::Game) type of `$kind` (a
        /// [`GameKind`](crate::GameKind)).
        ///
        /// ```
        /// use deckmate_engine::{Game, GameKind, with_game};
        /// assert_eq!(with_game!(GameKind::PigeonChess, G => G::ID), "pigeon_chess");
        /// ```
        #[macro_export]
        macro_rules! with_game {
            ($d kind:expr, $d G:ident => $d body:expr) => {
                match $d kind {
                    $(
                        $d crate::GameKind::$kind => {
                            type $d G = $d crate::games::$module::$game;
                            $d body
                        }
                    )+
                }
            };
        }
    };
}
