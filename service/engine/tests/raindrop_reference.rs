//! Raindropchess legality against a slow, independent checker, on random Raindrop positions
//! (docs/rules/raindrop_chess.md §3, §4, §5), under both editions of the rules.
//!
//! The positions come from random playouts (with and without jokers). For each one the checker
//! reads only the public observation (board, pools, deck counts, flipped cards, options, stage)
//! and works out the legal actions by brute force: pieces move by walking offsets and rays on a
//! plain array, a move is legal iff after playing it on a copy the own King is not attacked
//! (attacks found by generating every enemy piece's moves), a flip is legal iff the deck holds a
//! card and, in check, one checker stands at a distance on a line or (edition 2) a joker has not
//! been flipped yet, and a placement is legal iff its square is empty, allowed by the card, and
//! leaves the King out of check. The engine must list exactly those actions. Since the checker
//! sees only the observation, its answer cannot depend on the hidden deck order either.

use std::collections::BTreeSet;

use deckmate_engine::chess::{
    BISHOP_DIRECTIONS, Color, KING_STEPS, KNIGHT_STEPS, Piece, ROOK_DIRECTIONS, Role, Square,
};
use deckmate_engine::games::raindrop_chess::{
    Action, Card, ChessMove, Config, JokerEffect, Observation, RaindropChess, SideView, Stage,
};
use deckmate_engine::{Edition, Game, Seat, Seed, Viewer};

type Board = [Option<Piece>; 64];

fn at(file: i8, rank: i8) -> Option<usize> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

fn coords(index: usize) -> (i8, i8) {
    ((index % 8) as i8, (index / 8) as i8)
}

fn forward(color: Color) -> i8 {
    if color == Color::White { 1 } else { -1 }
}

/// The squares the piece on `from` attacks.
fn attacks(board: &Board, from: usize) -> Vec<usize> {
    let piece = board[from].expect("a piece");
    let (file, rank) = coords(from);
    let mut out = Vec::new();
    let mut leaps = |steps: &[(i8, i8)]| {
        for (df, dr) in steps {
            out.extend(at(file + df, rank + dr));
        }
    };
    match piece.role {
        Role::Pawn => leaps(&[(1, forward(piece.color)), (-1, forward(piece.color))]),
        Role::Knight => leaps(&KNIGHT_STEPS),
        Role::King => leaps(&KING_STEPS),
        role => {
            let mut rays: Vec<(i8, i8)> = Vec::new();
            if matches!(role, Role::Rook | Role::Queen) {
                rays.extend(ROOK_DIRECTIONS);
            }
            if matches!(role, Role::Bishop | Role::Queen) {
                rays.extend(BISHOP_DIRECTIONS);
            }
            for (df, dr) in rays {
                let (mut f, mut r) = (file + df, rank + dr);
                while let Some(square) = at(f, r) {
                    out.push(square);
                    if board[square].is_some() {
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
    }
    out
}

fn king_attacked(board: &Board, color: Color) -> bool {
    let Some(king) = (0..64).find(|i| board[*i] == Some(Piece::new(color, Role::King))) else {
        return false;
    };
    (0..64).any(|from| {
        board[from].is_some_and(|piece| piece.color != color)
            && attacks(board, from).contains(&king)
    })
}

fn square(index: usize) -> Square {
    Square::new(index as u8).expect("a square")
}

/// Seat 0 plays White, seat 1 Black.
fn side_colour(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The legal chess moves by brute force.
fn reference_moves(board: &Board, color: Color, pool: &[Role]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for from in 0..64 {
        let Some(piece) = board[from] else { continue };
        if piece.color != color {
            continue;
        }
        let mut targets = Vec::new();
        if piece.role == Role::Pawn {
            let (file, rank) = coords(from);
            if let Some(ahead) = at(file, rank + forward(color))
                && board[ahead].is_none()
            {
                targets.push(ahead);
            }
            for target in attacks(board, from) {
                if board[target].is_some_and(|other| other.color != color) {
                    targets.push(target);
                }
            }
        } else {
            for target in attacks(board, from) {
                if board[target].is_none_or(|other| other.color != color) {
                    targets.push(target);
                }
            }
        }
        for to in targets {
            if board[to].is_some_and(|other| other.role == Role::King) {
                continue;
            }
            let mut after = *board;
            after[to] = after[from].take();
            if king_attacked(&after, color) {
                continue;
            }
            let last = if color == Color::White { 7 } else { 0 };
            let mut choices = vec![None];
            if piece.role == Role::Pawn && coords(to).1 == last {
                choices.extend(pool.iter().copied().map(Some));
            }
            for promotion in choices {
                let chess_move = ChessMove {
                    from: square(from),
                    to: square(to),
                    promotion,
                };
                out.insert(chess_move.to_string());
            }
        }
    }
    out
}

/// The placement squares of `card` by brute force.
fn reference_placements(board: &Board, color: Color, card: Card) -> BTreeSet<String> {
    let in_check = king_attacked(board, color);
    let role = card.role().expect("a piece card");
    (0..64)
        .filter(|index| board[*index].is_none())
        .filter(|index| {
            let (file, rank) = coords(*index);
            match card {
                Card::Pawn if color == Color::White => (1..=5).contains(&rank),
                Card::Pawn => (2..=6).contains(&rank),
                Card::LightBishop => (file + rank) % 2 == 1,
                Card::DarkBishop => (file + rank) % 2 == 0,
                Card::King => {
                    let mut after = *board;
                    after[*index] = Some(Piece::new(color, Role::King));
                    !king_attacked(&after, color)
                }
                _ => true,
            }
        })
        .filter(|index| {
            let mut after = *board;
            after[*index] = Some(Piece::new(color, role));
            !in_check || !king_attacked(&after, color)
        })
        .map(|index| format!("place {}", square(index)))
        .collect()
}

/// docs/rules/raindrop_chess.md §4: one checker, at a distance on a line (so there is a square
/// between).
fn blockable(board: &Board, color: Color) -> bool {
    let king = (0..64)
        .find(|i| board[*i] == Some(Piece::new(color, Role::King)))
        .expect("in check means a King");
    let checkers: Vec<usize> = (0..64)
        .filter(|from| {
            board[*from].is_some_and(|piece| piece.color != color)
                && attacks(board, *from).contains(&king)
        })
        .collect();
    let [checker] = checkers[..] else {
        return false;
    };
    let slider = matches!(
        board[checker].map(|piece| piece.role),
        Some(Role::Bishop | Role::Rook | Role::Queen)
    );
    let (kf, kr) = coords(king);
    let (cf, cr) = coords(checker);
    slider && ((kf - cf).abs().max((kr - cr).abs()) > 1)
}

/// The jokers `side` has not flipped yet: those the options shuffle into each deck less the
/// ones it flipped (docs/rules/raindrop_chess.md §1, §7).
fn jokers_left(observation: &Observation, side: &SideView) -> usize {
    let flipped = side
        .flipped
        .iter()
        .filter(|card| **card == Card::Joker)
        .count();
    usize::from(observation.config.jokers_per_deck) - flipped
}

/// Every legal action by brute force, from the observation only.
fn reference_actions(observation: &Observation, seat: Seat, edition: Edition) -> BTreeSet<String> {
    let color = side_colour(seat);
    let board = observation.board;
    let side = &observation.sides[seat.index()];
    match observation.stage {
        Stage::Place(card) => reference_placements(&board, color, card),
        Stage::Remove => (0..64)
            .filter(|index| {
                board[*index].is_some_and(|piece| piece.color != color && piece.role != Role::King)
            })
            .filter(|index| {
                let mut after = board;
                after[*index] = None;
                !king_attacked(&after, color)
            })
            .map(|index| format!("remove {}", square(index)))
            .collect(),
        Stage::Turn => {
            let mut out = BTreeSet::new();
            let in_check = king_attacked(&board, color);
            // docs/rules/raindrop_chess.md §4, §8.10, §10.1: a joker left makes any check
            // worth a flip from edition 2 on.
            let joker_may_help = edition.has(Edition::SECOND) && jokers_left(observation, side) > 0;
            if side.deck_count > 0 && (!in_check || blockable(&board, color) || joker_may_help) {
                out.insert("flip".to_string());
            }
            if side.king_placed {
                out.extend(reference_moves(&board, color, &side.promotion_pool));
            }
            out
        }
        Stage::Finished => BTreeSet::new(),
    }
}

#[test]
fn legal_actions_match_the_slow_reference_on_random_raindrop_positions() {
    let configs = [
        Config::default(),
        Config {
            jokers_per_deck: 2,
            joker_effect: JokerEffect::RemovePiece,
            bishop_card_fixes_square_colour: true,
            ..Config::default()
        },
        Config {
            jokers_per_deck: 1,
            captured_promotion_returns: true,
            ..Config::default()
        },
    ];
    let mut compared = 0usize;
    let mut moves_seen = 0usize;
    let mut in_check = 0usize;
    let mut joker_flips_in_check = 0usize;
    let editions = [Edition::LATEST, Edition::FIRST];
    for (index, config) in configs.iter().enumerate() {
        for seed in 0..25u64 {
            // Most playouts under the latest rules, every fifth under the first edition's.
            let edition = editions[usize::from(seed % 5 == 4)];
            let (mut state, _) = RaindropChess::new_game_in(
                config,
                2,
                Seed::from_u64(seed * 7 + index as u64),
                edition,
            )
            .expect("valid setup");
            let mut pick = seed.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            while RaindropChess::outcome(&state).is_none() {
                let seat = RaindropChess::to_act(&state).iter().next().expect("a seat");
                let observation = RaindropChess::observe(&state, Viewer::Spectator);
                let actions = RaindropChess::legal_actions(&state, seat);
                let listed: BTreeSet<String> = actions.iter().map(Action::to_string).collect();
                assert_eq!(listed.len(), actions.len(), "duplicate actions");
                let expected = reference_actions(&observation, seat, edition);
                assert_eq!(
                    listed, expected,
                    "seed {seed} config {index} {edition}: {observation:?}"
                );
                let side = &observation.sides[seat.index()];
                if side.in_check
                    && listed.contains("flip")
                    && jokers_left(&observation, side) > 0
                    && !blockable(&observation.board, side_colour(seat))
                {
                    joker_flips_in_check += 1;
                }
                compared += 1;
                moves_seen += actions
                    .iter()
                    .filter(|action| matches!(action, Action::Move(_)))
                    .count();
                in_check += usize::from(observation.sides[seat.index()].in_check);
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let action = actions[(pick >> 33) as usize % actions.len()];
                RaindropChess::apply(&mut state, seat, &action).expect("listed actions apply");
            }
        }
    }
    assert!(compared > 5_000, "only {compared} positions compared");
    assert!(
        moves_seen > 10_000 && in_check > 50 && joker_flips_in_check > 0,
        "{moves_seen} moves, {in_check} checks, {joker_flips_in_check} flips only a joker allows"
    );
}
