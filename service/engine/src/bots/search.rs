//! [`super::BotLevel::Search`]: determinized information-set search.
//!
//! For each of `budget.determinizations` sampled hidden states, every candidate action is
//! applied once and scored one step ahead (a prior worth [`PRIOR_WEIGHT`] playouts), then
//! `budget.playouts` playouts are spread over the candidates by UCB1. Each sampled state gives
//! every candidate its average value; the averages are summed over the samples and the best sum
//! is played.
//!
//! Summing averages rather than letting each sample vote for its best action: with a dozen
//! samples, votes are coarse and often tied, and a vote throws away by how much an action was
//! better; an action that is nearly best everywhere (robust to what the bot cannot see) should
//! beat one that is narrowly best in a few samples and poor in the rest, and the sum says so.

use super::greedy::{WIN_NOW, one_step};
use super::pick::best_index;
use super::playout::playout;
use super::{Budget, Determinizer};
use crate::game::Game;
use crate::rng::GameRng;

/// UCB1's exploration constant, for values in `[0, 1]`: below the textbook √2 because playouts
/// are few and the prior already scored every candidate.
const EXPLORATION: f64 = 0.7;

/// How many playouts the one-step score of a candidate counts for. With many candidates each
/// gets only a few playouts, and noisy playouts alone would throw away the exact one-step
/// comparison that makes Greedy strong; playouts still overrule it where they agree.
const PRIOR_WEIGHT: u32 = 3;

/// Running totals of one candidate in one sampled state.
#[derive(Clone, Copy, Default)]
struct Arm {
    sum: f64,
    count: u32,
}

impl Arm {
    fn mean(self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / f64::from(self.count)
        }
    }
}

/// The seat's best action found by the search, or the best so far once `stop` returns true.
pub(super) fn choose<G: Game>(
    view: &Determinizer<'_, G>,
    budget: Budget,
    rng: &mut GameRng,
    stop: &dyn Fn() -> bool,
) -> Option<G::Action> {
    let mut actions = view.legal_actions();
    if actions.len() <= 1 {
        return actions.pop();
    }
    let seat = view.seat();
    let mut totals = vec![0.0f64; actions.len()];
    for _ in 0..budget.determinizations.max(1) {
        let state = view.sample(rng);
        let mut children = Vec::with_capacity(actions.len());
        let mut arms = vec![Arm::default(); actions.len()];
        for (index, action) in actions.iter().enumerate() {
            let child = one_step::<G>(&state, seat, action);
            if let Some((_, score)) = &child {
                // A win one action ahead is always taken.
                if *score >= WIN_NOW {
                    return Some(actions.swap_remove(index));
                }
                arms[index] = Arm {
                    sum: f64::from(PRIOR_WEIGHT) * *score,
                    count: PRIOR_WEIGHT,
                };
            }
            children.push(child.map(|(next, _)| next));
        }
        let mut stopped = false;
        for _ in 0..budget.playouts {
            if stop() {
                stopped = true;
                break;
            }
            let index = select(&arms, &children);
            let Some(child) = &children[index] else {
                break;
            };
            let value = if G::outcome(child).is_some() {
                // A finished game needs no playout: its value is known.
                arms[index].mean()
            } else {
                playout::<G>(child.clone(), seat, rng)
            };
            arms[index].sum += value;
            arms[index].count += 1;
        }
        for (total, arm) in totals.iter_mut().zip(&arms) {
            *total += arm.mean();
        }
        if stopped || stop() {
            break;
        }
    }
    let index = best_index(&totals, rng)?;
    Some(actions.swap_remove(index))
}

/// The candidate UCB1 plays next: highest mean plus exploration bonus, among those that apply.
/// Each arm's count includes its prior's weight, and so does the total.
fn select<S>(arms: &[Arm], children: &[Option<S>]) -> usize {
    let total = f64::from(arms.iter().map(|arm| arm.count).sum::<u32>().max(1)).ln();
    let mut best = (0, f64::NEG_INFINITY);
    for (index, arm) in arms.iter().enumerate() {
        if children[index].is_none() {
            continue;
        }
        let bonus = EXPLORATION * (total / f64::from(arm.count.max(1))).sqrt();
        let score = arm.mean() + bonus;
        if score > best.1 {
            best = (index, score);
        }
    }
    best.0
}
