//! [`GamePlan`]: which variants a scenario plays, how each game is created, and which variant
//! the next game is. Variants come from the server's `ListVariants`, with their default config,
//! so that every hosted game is covered without the load generator knowing any of them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use deckmate::{Client, pb};

use crate::SetupError;
use crate::game_quotas;
use crate::options::VariantSelection;

/// One variant as the scenario creates it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlannedVariant {
    /// The variant id, such as `pigeon_chess`.
    pub(crate) id: String,
    /// The config games are created with: the server's default.
    pub(crate) config: pb::GameConfig,
    /// Seats per game.
    pub(crate) seats: u32,
}

/// A game to create: its variant and its number in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NextGame {
    /// The variant's index in the plan.
    pub(crate) variant: usize,
    /// The game's number: the `number`-th game the run creates (from 0), which the routing
    /// rule places on the targets.
    pub(crate) number: u64,
}

/// The variants of a scenario and the game counter that hands them out in turn.
#[derive(Debug)]
pub(crate) struct GamePlan {
    variants: Vec<PlannedVariant>,
    /// Games to start in the measured window, if the scenario ends by a count.
    target: Option<u64>,
    /// The base of fixed game seeds (`--game-seeds`).
    game_seeds: Option<u64>,
    /// Why a `CreateGame` refused for a game quota stops the run ([`crate::game_quotas`]).
    quota_hint: Arc<str>,
    /// Every game handed out, for the turn of variants.
    handed_out: AtomicU64,
    /// Games handed out in the measured window.
    counted: AtomicU64,
}

impl GamePlan {
    /// A plan over `variants` (not empty), optionally ending after `target` measured games.
    pub(crate) fn new(variants: Vec<PlannedVariant>, target: Option<u64>) -> GamePlan {
        assert!(!variants.is_empty(), "a plan needs a variant");
        GamePlan {
            variants,
            target,
            game_seeds: None,
            quota_hint: game_quotas::hint(None).into(),
            handed_out: AtomicU64::new(0),
            counted: AtomicU64::new(0),
        }
    }

    /// Gives every game a fixed seed drawn from `base` and its number (`None`: the server
    /// draws secret seeds).
    pub(crate) fn with_game_seeds(mut self, base: Option<u64>) -> GamePlan {
        self.game_seeds = base;
        self
    }

    /// Says `hint` when a `CreateGame` is refused for a game quota (by default, the words of a
    /// server that did not report its quotas).
    pub(crate) fn with_quota_hint(mut self, hint: String) -> GamePlan {
        self.quota_hint = hint.into();
        self
    }

    /// Why a `CreateGame` refused for a game quota stops the run.
    pub(crate) fn quota_hint(&self) -> &Arc<str> {
        &self.quota_hint
    }

    /// The seed game `number` is created with, when the plan fixes seeds.
    pub(crate) fn seed_of(&self, number: u64) -> Option<u64> {
        self.game_seeds.map(|base| mix(base, number))
    }

    /// The next game to create, or `None` once the measured game count has been handed out.
    /// Games started in the warm-up do not count towards it.
    pub(crate) fn next_game(&self, warming_up: bool) -> Option<NextGame> {
        if !warming_up && let Some(target) = self.target {
            let started = self.counted.fetch_add(1, Ordering::Relaxed);
            if started >= target {
                return None;
            }
        }
        let turn = self.handed_out.fetch_add(1, Ordering::Relaxed);
        Some(NextGame {
            variant: (turn % self.variants.len() as u64) as usize,
            number: turn,
        })
    }

    /// Variant number `index`.
    pub(crate) fn variant(&self, index: usize) -> &PlannedVariant {
        &self.variants[index]
    }

    /// The planned variants, in plan order.
    pub(crate) fn variants(&self) -> &[PlannedVariant] {
        &self.variants
    }

    /// The variant ids, in plan order.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.variants
            .iter()
            .map(|variant| variant.id.clone())
            .collect()
    }
}

/// The variants of `selection` as the server describes them, each with `seats` seats (0: its
/// smallest count).
pub(crate) async fn resolve(
    client: &Client,
    selection: &VariantSelection,
    seats: u32,
) -> Result<Vec<PlannedVariant>, SetupError> {
    let listed = client
        .list_variants()
        .await
        .map_err(|error| SetupError::Server(format!("ListVariants failed: {error}")))?;
    select(listed, selection, seats)
}

/// The planned variants of `selection` among the `listed` ones.
fn select(
    listed: Vec<pb::Variant>,
    selection: &VariantSelection,
    seats: u32,
) -> Result<Vec<PlannedVariant>, SetupError> {
    let chosen: Vec<pb::Variant> = match selection {
        VariantSelection::All => listed,
        VariantSelection::Only(ids) => {
            let mut chosen: Vec<pb::Variant> = Vec::new();
            for id in ids {
                if chosen.iter().any(|variant| &variant.id == id) {
                    continue;
                }
                let variant = listed
                    .iter()
                    .find(|variant| &variant.id == id)
                    .ok_or_else(|| SetupError::UnknownVariant {
                        id: id.clone(),
                        known: listed.iter().map(|variant| variant.id.clone()).collect(),
                    })?;
                chosen.push(variant.clone());
            }
            chosen
        }
    };
    if chosen.is_empty() {
        return Err(SetupError::Server("the server lists no variants".into()));
    }
    chosen
        .into_iter()
        .map(|variant| {
            let seats = match seats {
                0 => variant.min_seats,
                n if (variant.min_seats..=variant.max_seats).contains(&n) => n,
                n => {
                    return Err(SetupError::Seats {
                        id: variant.id,
                        requested: n,
                        min: variant.min_seats,
                        max: variant.max_seats,
                    });
                }
            };
            let config = variant.default_config.ok_or_else(|| {
                SetupError::Server(format!("variant {} has no default config", variant.id))
            })?;
            Ok(PlannedVariant {
                id: variant.id,
                config,
                seats,
            })
        })
        .collect()
}

/// Game `number`'s seed under base `base`: one SplitMix64 step, so that neighbouring numbers
/// get unrelated seeds.
pub(crate) fn mix(base: u64, number: u64) -> u64 {
    let mut z = base.wrapping_add(number.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(id: &str, seats: (u32, u32)) -> pb::Variant {
        pb::Variant {
            id: id.into(),
            name: id.to_uppercase(),
            min_seats: seats.0,
            max_seats: seats.1,
            default_config: Some(pb::GameConfig::default()),
            summary: String::new(),
        }
    }

    fn catalog() -> Vec<pb::Variant> {
        vec![listed("duel", (2, 2)), listed("party", (2, 4))]
    }

    #[test]
    fn all_takes_every_listed_variant_at_its_smallest_seat_count() {
        let planned = select(catalog(), &VariantSelection::All, 0).unwrap();
        let summary: Vec<(&str, u32)> = planned.iter().map(|v| (v.id.as_str(), v.seats)).collect();
        assert_eq!(summary, [("duel", 2), ("party", 2)]);
    }

    #[test]
    fn a_list_keeps_its_order_without_repeats_and_rejects_unknown_ids() {
        let only = VariantSelection::Only(vec!["party".into(), "duel".into(), "party".into()]);
        let planned = select(catalog(), &only, 2).unwrap();
        assert_eq!(
            planned.iter().map(|v| v.id.as_str()).collect::<Vec<_>>(),
            ["party", "duel"]
        );
        let unknown = VariantSelection::Only(vec!["chess".into()]);
        match select(catalog(), &unknown, 0) {
            Err(SetupError::UnknownVariant { id, known }) => {
                assert_eq!(id, "chess");
                assert_eq!(known, ["duel", "party"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_seat_count_outside_a_variant_range_is_refused() {
        let error = select(catalog(), &VariantSelection::All, 4).unwrap_err();
        assert!(
            matches!(&error, SetupError::Seats { id, requested: 4, .. } if id == "duel"),
            "{error}"
        );
        let party = VariantSelection::Only(vec!["party".into()]);
        assert_eq!(select(catalog(), &party, 4).unwrap()[0].seats, 4);
        assert!(select(Vec::new(), &VariantSelection::All, 0).is_err());
    }

    #[test]
    fn fixed_game_seeds_repeat_per_number_and_differ_between_numbers() {
        let variants = select(catalog(), &VariantSelection::All, 0).unwrap();
        let secret = GamePlan::new(variants.clone(), None);
        assert_eq!(secret.seed_of(0), None);
        let fixed = GamePlan::new(variants.clone(), None).with_game_seeds(Some(7));
        let again = GamePlan::new(variants.clone(), None).with_game_seeds(Some(7));
        let other = GamePlan::new(variants, None).with_game_seeds(Some(8));
        let seeds: Vec<u64> = (0..64).map(|n| fixed.seed_of(n).unwrap()).collect();
        assert_eq!(
            seeds,
            (0..64)
                .map(|n| again.seed_of(n).unwrap())
                .collect::<Vec<_>>()
        );
        let distinct: std::collections::HashSet<u64> = seeds.iter().copied().collect();
        assert_eq!(distinct.len(), seeds.len());
        assert_ne!(fixed.seed_of(3), other.seed_of(3));
    }

    #[test]
    fn games_take_the_variants_in_turn_and_stop_at_the_target() {
        let variants = select(catalog(), &VariantSelection::All, 0).unwrap();
        let plan = GamePlan::new(variants, Some(3));
        // Warm-up games do not count towards the target.
        assert_eq!(
            plan.next_game(true),
            Some(NextGame {
                variant: 0,
                number: 0
            })
        );
        let measured: Vec<Option<(usize, u64)>> = (0..4)
            .map(|_| {
                plan.next_game(false)
                    .map(|next| (next.variant, next.number))
            })
            .collect();
        assert_eq!(measured, [Some((1, 1)), Some((0, 2)), Some((1, 3)), None]);
        assert_eq!(plan.ids(), ["duel", "party"]);
        let endless = GamePlan::new(plan.variants.clone(), None);
        assert!((0..100).all(|_| endless.next_game(false).is_some()));
    }
}
