//! §4 the turn: listing and validating the actions, playing cards and their effects, chess
//! moves, drawing, and passing the turn on (with skips, §4 "Skips in a 2-player game").
//!
//! Decisions of the rule file this module carries out:
//! * After a number card the turn ends by itself once its last move is made; `EndTurn` ends it
//!   earlier. A 0 ends the turn at once. A number card with no legal chess move leaves only
//!   `EndTurn` (§4.1, §9.18).
//! * A Wild whose player has no legal chess move ends the turn at once (§4.2).
//! * After a Reverse the player plays a card matching it or ends the turn, never draws (§9.19).
//! * Cards in hand that are equal (same kind and colour) are listed once (§9.16); a wild card is
//!   listed once per colour in play (§9.20).

use super::Chuno;
use super::action::Action;
use super::call;
use super::card::{Card, Colour, Kind};
use super::deck::draw;
use super::end::{draw_by_deadlock, finish, no_progress_reached, win_by_king_capture};
use super::event::{DrawReason, Event};
use super::moves::{self, chess_moves, find_move};
use super::observation::Stage;
use super::playable::{is_playable, playable_cards, why_not_playable};
use super::state::{MAX_CARDS_PER_TURN, State, colour_of, take_from_hand};
use crate::chess::ChessMove;
use crate::chess::Move;
use crate::game::{EndReason, Outcome, PlayError};
use crate::games::common;
use crate::seat::Seat;

/// Every action `seat` may take now, in a fixed order: card plays (hand order, wild cards once
/// per colour), chess moves, `Draw`, `EndTurn`, then `CallChuno`.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut actions = Vec::new();
    if state.outcome.is_some() {
        return actions;
    }
    if seat == state.current {
        match state.stage {
            Stage::Start => {
                card_plays(state, &mut actions);
                if state.can_draw() {
                    actions.push(Action::Draw);
                }
            }
            Stage::AfterReverse => {
                card_plays(state, &mut actions);
                actions.push(Action::EndTurn);
            }
            Stage::Moves => {
                move_actions(state, &mut actions);
                actions.push(Action::EndTurn);
            }
            Stage::WildMove => move_actions(state, &mut actions),
            Stage::Finished => {}
        }
    }
    if state.chuno == Some(seat) {
        actions.push(Action::CallChuno);
    }
    actions
}

/// §3: the playable cards of the current player, each wild card once per colour in play.
fn card_plays(state: &State, actions: &mut Vec<Action>) {
    let hand = &state.hands[state.current.index()];
    for card in playable_cards(hand, state.top(), state.active_colour) {
        if card.is_wild() {
            for colour in state.config.colours_in_play() {
                actions.push(Action::Play {
                    card,
                    colour: Some(*colour),
                });
            }
        } else {
            actions.push(Action::Play { card, colour: None });
        }
    }
}

/// §5: the current player's chess moves.
fn move_actions(state: &State, actions: &mut Vec<Action>) {
    actions.extend(
        chess_moves(state, state.current)
            .iter()
            .map(|mv| Action::Move(moves::notation(mv))),
    );
}

/// A validated turn action, ready to apply.
enum Step {
    PlayCard(Card, Colour),
    Move(Move),
    EndTurn,
    Draw,
}

/// Applies one action of `seat`; on error the state is unchanged.
pub(crate) fn apply(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, PlayError> {
    common::check_may_act::<Chuno>(state, seat)?;
    let mut events = Vec::new();
    if *action == Action::CallChuno {
        call::call(state, seat, &mut events)?;
        call::mirror_game_action(state, seat, action);
        return Ok(events);
    }
    let step = validate(state, seat, action)?;
    // §6: the opponent's game action closes a pending CHUNO window first.
    call::close_window(state, seat, &mut events);
    call::mirror_game_action(state, seat, action);
    match step {
        Step::PlayCard(card, colour) => play_card(state, seat, card, colour, &mut events),
        Step::Move(mv) => make_move(state, seat, mv, &mut events),
        Step::EndTurn => end_turn(state, &mut events),
        Step::Draw => {
            draw(state, seat, 1, DrawReason::Draw, &mut events);
            end_turn(state, &mut events);
        }
    }
    Ok(events)
}

fn illegal(message: impl Into<String>) -> PlayError {
    PlayError::Illegal(message.into())
}

/// Checks a turn action of `seat` against §3–§5, with messages that name only the player's own
/// hand and public information.
fn validate(state: &State, seat: Seat, action: &Action) -> Result<Step, PlayError> {
    if seat != state.current {
        return Err(illegal("outside your turn you may only call CHUNO"));
    }
    match *action {
        Action::Play { card, colour } => validate_play(state, card, colour),
        Action::Move(chess_move) => validate_move(state, seat, chess_move),
        Action::EndTurn => match state.stage {
            Stage::Moves | Stage::AfterReverse => Ok(Step::EndTurn),
            Stage::WildMove => Err(illegal("the Wild's chess move is compulsory")),
            Stage::Start | Stage::Finished => Err(illegal(
                "play a card or draw one; the turn cannot end before",
            )),
        },
        Action::Draw => {
            if state.stage != Stage::Start {
                return Err(illegal(
                    "you may draw only at the start of your turn, instead of playing a card",
                ));
            }
            if !state.can_draw() {
                return Err(illegal(
                    "the deck is empty and the discard pile holds only its top card",
                ));
            }
            Ok(Step::Draw)
        }
        Action::CallChuno => Err(illegal("you have no CHUNO call to make")),
    }
}

fn validate_play(state: &State, card: Card, colour: Option<Colour>) -> Result<Step, PlayError> {
    match state.stage {
        Stage::Start => {}
        Stage::AfterReverse => {}
        Stage::Moves | Stage::WildMove => {
            return Err(illegal(
                "a card was already played: make its chess moves or end the turn",
            ));
        }
        Stage::Finished => return Err(PlayError::GameOver),
    }
    if !card.is_well_formed() {
        return Err(illegal(format!("{card} is not a CHUNO card")));
    }
    let colours = state.config.colours_in_play();
    let active = match (card.is_wild(), colour) {
        (true, Some(chosen)) if colours.contains(&chosen) => chosen,
        (true, _) => {
            let names: Vec<String> = colours.iter().map(Colour::to_string).collect();
            return Err(illegal(format!(
                "a wild card needs the new colour, one of {}",
                names.join(", ")
            )));
        }
        (false, Some(_)) => return Err(illegal("only a wild card chooses a colour")),
        (false, None) => card.colour.expect("a well-formed coloured card"),
    };
    let hand = &state.hands[state.current.index()];
    if !hand.contains(&card) {
        return Err(illegal(format!("you hold no {card}")));
    }
    if !is_playable(card, hand, state.top(), state.active_colour) {
        return Err(illegal(why_not_playable(
            card,
            state.top(),
            state.active_colour,
        )));
    }
    Ok(Step::PlayCard(card, active))
}

fn validate_move(state: &State, seat: Seat, chess_move: ChessMove) -> Result<Step, PlayError> {
    match state.stage {
        Stage::Moves | Stage::WildMove => {}
        Stage::AfterReverse | Stage::Start | Stage::Finished => {
            return Err(illegal(
                "chess moves follow only a number card or a Wild played this turn",
            ));
        }
    }
    find_move(&chess_moves(state, seat), chess_move)
        .map(Step::Move)
        .ok_or_else(|| illegal(format!("{chess_move} is not a legal chess move now")))
}

/// §4.1–§4.3, §7: plays `card` (choosing `active` as the colour to match) and applies its
/// effect. Emptying the hand wins at once, before any effect (§7, §9.9).
fn play_card(state: &mut State, seat: Seat, card: Card, active: Colour, events: &mut Vec<Event>) {
    let hand = &mut state.hands[seat.index()];
    let held = take_from_hand(hand, card);
    debug_assert!(held, "validated: the hand holds {card}");
    let left = hand.len();
    state.discard.push(card);
    state.active_colour = active;
    state.cards_this_turn += 1;
    events.push(Event::CardPlayed {
        seat,
        card,
        active_colour: active,
    });
    if left == 0 {
        finish(state, Outcome::win(seat, EndReason::OutOfCards));
        return;
    }
    if left == 1 {
        call::oblige(state, seat, events);
    }
    let opponent = seat.opponent();
    match card.kind {
        Kind::Zero | Kind::One | Kind::Two => {
            let granted = card.kind.number().unwrap_or(0);
            if granted == 0 {
                end_turn(state, events);
            } else {
                state.stage = Stage::Moves;
                state.moves_left = granted;
            }
        }
        Kind::Wild => {
            if chess_moves(state, seat).is_empty() {
                events.push(Event::NoMovePossible { seat });
                end_turn(state, events);
            } else {
                state.stage = Stage::WildMove;
                state.moves_left = 1;
            }
        }
        Kind::Skip => {
            add_skip(state, opponent, events);
            end_turn(state, events);
        }
        Kind::DrawTwo => {
            draw(state, opponent, 2, DrawReason::DrawTwo, events);
            add_skip(state, opponent, events);
            end_turn(state, events);
        }
        Kind::WildDrawFour => {
            draw(state, opponent, 4, DrawReason::WildDrawFour, events);
            add_skip(state, opponent, events);
            end_turn(state, events);
        }
        Kind::Reverse => {
            if state.cards_this_turn < MAX_CARDS_PER_TURN {
                state.stage = Stage::AfterReverse;
            } else {
                end_turn(state, events);
            }
        }
    }
}

/// §4, §9.8: one more turn for `seat` to lose; several skips add up.
fn add_skip(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    let counter = &mut state.skips[seat.index()];
    *counter += 1;
    events.push(Event::SkipAdded {
        seat,
        counter: *counter,
    });
}

/// §5, §7, §10: plays one chess move; a King capture wins at once, the no-progress limit draws,
/// and the turn ends by itself once no move is left.
fn make_move(state: &mut State, seat: Seat, mv: Move, events: &mut Vec<Event>) {
    let played = moves::play(state, seat, mv, events);
    state.quiet_moves = if played.progress {
        0
    } else {
        state.quiet_moves + 1
    };
    if played.record.king_captured {
        win_by_king_capture(state, seat);
        return;
    }
    if no_progress_reached(state) {
        finish(state, Outcome::draw(EndReason::NoProgress));
        return;
    }
    state.moves_left = state.moves_left.saturating_sub(1);
    if state.moves_left == 0 {
        end_turn(state, events);
    }
}

/// Ends the current turn and starts the next: the opponent's, or, while the opponent has turns
/// to skip, the current player's again (§4). The turn cap of §10 applies here.
pub(crate) fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    state.turns_taken += 1;
    if state.turns_taken >= state.config.max_turns {
        finish(state, Outcome::draw(EndReason::TurnCap));
        return;
    }
    let current = state.current;
    let opponent = current.opponent();
    let next = if state.skips[opponent.index()] > 0 {
        state.skips[opponent.index()] -= 1;
        events.push(Event::TurnSkipped {
            seat: opponent,
            remaining: state.skips[opponent.index()],
        });
        current
    } else {
        opponent
    };
    begin_turn(state, next, events);
}

/// Starts `seat`'s turn (a new turn, also when a skip gives the turn back: §9.15). §7: if the
/// player can neither draw nor play, the game is drawn (§9.14).
pub(crate) fn begin_turn(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    state.current = seat;
    state.stage = Stage::Start;
    state.moves_left = 0;
    state.cards_this_turn = 0;
    moves::hand_over(&mut state.position, colour_of(seat));
    events.push(Event::TurnStarted {
        seat,
        turn: state.turn_number(),
    });
    let stuck = !state.can_draw()
        && playable_cards(&state.hands[seat.index()], state.top(), state.active_colour).is_empty();
    if stuck {
        draw_by_deadlock(state);
    }
}
