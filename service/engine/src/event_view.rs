//! Events and their per-viewer views, declared once.
//!
//! Every game has two event types: `Event`, with every detail, which only the server keeps
//! (session storage writes it with postcard), and `EventView`, what one viewer may know of it.
//! They have the same variants and fields except for the secret fields. A game declares both
//! with one [`secret_events!`] invocation: the full enum, with each secret field marked by who
//! may see it, followed by the name and attributes of the view enum. The macro writes
//!
//! * the full enum exactly as declared (so its serde layout is the declaration's);
//! * the view enum with the same variants, fields and documentation, where a secret field of
//!   type `T` becomes `Option<T>` (`None` for viewers who may not see it), and, when the marker
//!   asks for it, a public `u32` field holding the secret collection's length comes just before
//!   it;
//! * `Event::view(viewer)`, the projection for one viewer while the game runs, and
//!   `Event::reveal()`, every detail, for the complete history of a finished game. The game's
//!   [`crate::Game::view_event`] and [`crate::Game::reveal_event`] call them.
//!
//! A secret field is marked `#[secret(to = seat)]` when only the seat named by the variant's
//! field `seat` (of type [`Seat`]) sees it, or `#[secret(to = nobody)]` when no viewer sees it
//! until the game is over. Adding `len = count` gives the view a field `count` with the length.
//! Anything not marked is public: every viewer sees it. So a game states its secrets once, next
//! to the fields themselves, and a new field is public unless marked:
//!
//! ```ignore
//! secret_events! {
//!     /// Something that happened, with every detail.
//!     #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
//!     pub enum Event {
//!         /// A seat drew cards.
//!         CardsDrawn {
//!             /// Who drew.
//!             seat: Seat,
//!             /// The cards, in draw order.
//!             #[secret(to = seat, len = count)]
//!             cards: Vec<Card>,
//!         },
//!     }
//!     /// An event as one viewer may know it.
//!     #[derive(Clone, Debug, PartialEq, Eq)]
//!     pub enum EventView;
//! }
//! ```
//!
//! declares `Event::CardsDrawn { seat, cards }` and
//! `EventView::CardsDrawn { seat, count: u32, cards: Option<Vec<Card>> }`.
//!
//! Variants may also be tuple variants with one public field (`Moved(MoveRecord)`) or unit
//! variants. Every field of a view is cloned from the event, so field types need `Clone`.

use crate::seat::{Seat, Viewer};

/// Who may see a secret field of an event while the game runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Audience {
    /// Only this seat, e.g. the seat that drew the cards.
    Seat(Seat),
    /// No viewer; the field is told only in the complete history of a finished game.
    Nobody,
}

/// For whom an event is projected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Projection {
    /// One viewer.
    Viewer(Viewer),
    /// The complete history of a finished game: every secret shown.
    Revealed,
}

impl Projection {
    /// Whether this projection shows a secret meant for `audience`.
    pub(crate) fn shows(self, audience: Audience) -> bool {
        match (self, audience) {
            (Projection::Revealed, _) => true,
            (Projection::Viewer(viewer), Audience::Seat(seat)) => viewer.is(seat),
            (Projection::Viewer(_), Audience::Nobody) => false,
        }
    }
}

/// Declares a game's `Event` and `EventView` enums and the projection between them from one
/// declaration in which secret fields are marked; see the module documentation.
///
/// The rules starting with `@` are internal steps: the variants are taken one at a time,
/// appending each to the full enum, the view enum and the projection's match arms, and the
/// last step writes all three.
macro_rules! secret_events {
    (
        $(#[$full_attr:meta])*
        $full_vis:vis enum $Full:ident { $($variants:tt)* }
        $(#[$view_attr:meta])*
        $view_vis:vis enum $View:ident;
    ) => {
        $crate::event_view::secret_events! {
            @variant
            [$Full $View projection]
            [$(#[$full_attr])* $full_vis enum $Full]
            [$(#[$view_attr])* $view_vis enum $View]
            full [] view [] arms []
            rest [$($variants)*]
        }
    };

    // A variant with named fields, some of them secret.
    (
        @variant [$Full:ident $View:ident $projection:ident] $full_head:tt $view_head:tt
        full [$($full:tt)*] view [$($view:tt)*] arms [$($arms:tt)*]
        rest [
            $(#[doc = $doc:literal])*
            $Variant:ident {
                $(
                    $(#[doc = $field_doc:literal])*
                    $(#[secret(to = $audience:ident $(, len = $len:ident)?)])?
                    $field:ident : $Type:ty
                ),* $(,)?
            }
            $(, $($rest:tt)*)?
        ]
    ) => {
        $crate::event_view::secret_events! {
            @variant [$Full $View $projection] $full_head $view_head
            full [
                $($full)*
                $(#[doc = $doc])*
                $Variant { $($(#[doc = $field_doc])* $field: $Type,)* },
            ]
            view [
                $($view)*
                $(#[doc = $doc])*
                $Variant {
                    $(
                        $($(
                            #[doc = concat!("The length of `", stringify!($field), "`, told to every viewer.")]
                            $len: u32,
                        )?)?
                        $(#[doc = $field_doc])*
                        $(
                            #[doc = ""]
                            #[doc = $crate::event_view::secret_events!(@who $audience)]
                        )?
                        $field: $crate::event_view::secret_events!(@type $Type $(, $audience)?),
                    )*
                },
            ]
            arms [
                $($arms)*
                $Full::$Variant { $($field),* } => $View::$Variant {
                    $(
                        $($($len: $field.len() as u32,)?)?
                        $field: $crate::event_view::secret_events!(
                            @value $projection, $field $(, $audience)?
                        ),
                    )*
                },
            ]
            rest [$($($rest)*)?]
        }
    };

    // A tuple variant: one public value.
    (
        @variant [$Full:ident $View:ident $projection:ident] $full_head:tt $view_head:tt
        full [$($full:tt)*] view [$($view:tt)*] arms [$($arms:tt)*]
        rest [
            $(#[doc = $doc:literal])*
            $Variant:ident ($Type:ty)
            $(, $($rest:tt)*)?
        ]
    ) => {
        $crate::event_view::secret_events! {
            @variant [$Full $View $projection] $full_head $view_head
            full [$($full)* $(#[doc = $doc])* $Variant($Type),]
            view [$($view)* $(#[doc = $doc])* $Variant($Type),]
            arms [
                $($arms)*
                $Full::$Variant(value) => $View::$Variant(::core::clone::Clone::clone(value)),
            ]
            rest [$($($rest)*)?]
        }
    };

    // A variant without fields.
    (
        @variant [$Full:ident $View:ident $projection:ident] $full_head:tt $view_head:tt
        full [$($full:tt)*] view [$($view:tt)*] arms [$($arms:tt)*]
        rest [
            $(#[doc = $doc:literal])*
            $Variant:ident
            $(, $($rest:tt)*)?
        ]
    ) => {
        $crate::event_view::secret_events! {
            @variant [$Full $View $projection] $full_head $view_head
            full [$($full)* $(#[doc = $doc])* $Variant,]
            view [$($view)* $(#[doc = $doc])* $Variant,]
            arms [$($arms)* $Full::$Variant => $View::$Variant,]
            rest [$($($rest)*)?]
        }
    };

    // Every variant taken: write the enums and the projection.
    (
        @variant [$Full:ident $View:ident $projection:ident]
        [$($full_head:tt)*] [$($view_head:tt)*]
        full [$($full:tt)*] view [$($view:tt)*] arms [$($arms:tt)*]
        rest []
    ) => {
        $($full_head)* { $($full)* }

        $($view_head)* { $($view)* }

        impl $Full {
            /// This event as `viewer` may know it: each secret field only for its audience.
            pub(crate) fn view(&self, viewer: $crate::seat::Viewer) -> $View {
                self.project($crate::event_view::Projection::Viewer(viewer))
            }

            /// This event with every detail, for the complete history of a finished game.
            pub(crate) fn reveal(&self) -> $View {
                self.project($crate::event_view::Projection::Revealed)
            }

            fn project(&self, $projection: $crate::event_view::Projection) -> $View {
                match self {
                    $($arms)*
                }
            }
        }
    };

    // The view's type of a field: `Option` for a secret one.
    (@type $Type:ty) => { $Type };
    (@type $Type:ty, $audience:ident) => { ::core::option::Option<$Type> };

    // The view's value of a field.
    (@value $projection:ident, $field:ident) => { ::core::clone::Clone::clone($field) };
    (@value $projection:ident, $field:ident, $audience:ident) => {
        $projection
            .shows($crate::event_view::secret_events!(@audience $audience))
            .then(|| ::core::clone::Clone::clone($field))
    };

    // Who may see a secret field.
    (@audience nobody) => { $crate::event_view::Audience::Nobody };
    (@audience $seat:ident) => { $crate::event_view::Audience::Seat(*$seat) };

    // The documentation of a secret field's view.
    (@who nobody) => {
        "Secret from every viewer while the game runs: `None` except in the complete history of \
         a finished game."
    };
    (@who $seat:ident) => {
        concat!(
            "Secret: `None` except for the seat in `",
            stringify!($seat),
            "` and in the complete history of a finished game."
        )
    };
}

pub(crate) use secret_events;

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use crate::seat::{Seat, Viewer};

    secret_events! {
        /// A sample event.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        enum Sample {
            /// Public fields only.
            Public {
                /// A number.
                number: u32,
            },
            /// A draw.
            Drawn {
                /// Who drew.
                seat: Seat,
                /// The cards.
                #[secret(to = seat, len = count)]
                cards: Vec<u8>,
                /// A choice only the drawer knows.
                #[secret(to = seat)]
                choice: u8,
            },
            /// A shuffle nobody sees.
            Shuffled {
                /// The order.
                #[secret(to = nobody, len = cards)]
                order: Vec<u8>,
            },
            /// A public value.
            Wrapped(u32),
            /// Nothing more.
            Done,
        }
        /// A sample view.
        #[derive(Clone, Debug, PartialEq, Eq)]
        enum SampleView;
    }

    #[test]
    fn a_seat_secret_is_shown_to_that_seat_only() {
        let drawn = Sample::Drawn {
            seat: Seat(1),
            cards: vec![3, 4],
            choice: 7,
        };
        let hidden = SampleView::Drawn {
            seat: Seat(1),
            count: 2,
            cards: None,
            choice: None,
        };
        let shown = SampleView::Drawn {
            seat: Seat(1),
            count: 2,
            cards: Some(vec![3, 4]),
            choice: Some(7),
        };
        assert_eq!(drawn.view(Viewer::Seat(Seat(0))), hidden);
        assert_eq!(drawn.view(Viewer::Spectator), hidden);
        assert_eq!(drawn.view(Viewer::Seat(Seat(1))), shown);
        assert_eq!(drawn.reveal(), shown);
    }

    #[test]
    fn a_secret_from_everyone_is_shown_only_when_revealed() {
        let shuffled = Sample::Shuffled { order: vec![2, 1] };
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
            assert_eq!(
                shuffled.view(viewer),
                SampleView::Shuffled {
                    cards: 2,
                    order: None
                }
            );
        }
        assert_eq!(
            shuffled.reveal(),
            SampleView::Shuffled {
                cards: 2,
                order: Some(vec![2, 1])
            }
        );
    }

    #[test]
    fn public_variants_are_copied_for_everyone() {
        let viewer = Viewer::Spectator;
        assert_eq!(
            Sample::Public { number: 5 }.view(viewer),
            SampleView::Public { number: 5 }
        );
        assert_eq!(Sample::Wrapped(9).view(viewer), SampleView::Wrapped(9));
        assert_eq!(Sample::Done.reveal(), SampleView::Done);
    }

    #[test]
    fn the_full_enum_encodes_as_declared() {
        let drawn = Sample::Drawn {
            seat: Seat(1),
            cards: vec![3, 4],
            choice: 7,
        };
        // Variant index, then the fields in declaration order: no view-only field.
        let bytes = postcard::to_allocvec(&drawn).expect("encodes");
        assert_eq!(bytes, [1, 1, 2, 3, 4, 7]);
    }
}
