//! The chess core against a slow, obviously correct reference generator.
//!
//! The reference below is written independently of the core: a square-by-square board, moves
//! found by walking offsets and rays, attacks found by generating every enemy piece's attacks,
//! legality by playing each move on a copy and looking at the king. Both generators are run on
//! thousands of positions (random playouts and random placements, with and without kings) in
//! every rule configuration, comparing the move sets, the positions after each move and small
//! perft counts.

use deckmate_engine::chess::{
    BISHOP_DIRECTIONS, CastleSide, CastlingRights, CheckRule, Color, KING_STEPS, KNIGHT_STEPS,
    Move, MoveKind, Piece, Position, ROOK_DIRECTIONS, Role, RoleSet, Rules, Square, perft,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------------------------
// The reference generator.
// ---------------------------------------------------------------------------------------------

/// A position as the reference sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RefPos {
    board: [Option<Piece>; 64],
    turn: Color,
    /// `rights[colour][0]` king side, `rights[colour][1]` queen side.
    rights: [[bool; 2]; 2],
    ep: Option<Square>,
}

fn at(file: i8, rank: i8) -> Option<Square> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Square::from_coords(file as u8, rank as u8)
    } else {
        None
    }
}

fn step(sq: Square, df: i8, dr: i8) -> Option<Square> {
    at(sq.file() as i8 + df, sq.rank() as i8 + dr)
}

fn forward(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

fn home_rank(color: Color) -> i8 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

impl RefPos {
    fn from_position(pos: &Position) -> RefPos {
        let mut board = [None; 64];
        for sq in Square::all() {
            board[sq.index() as usize] = pos.piece_at(sq);
        }
        let rights = pos.castling_rights();
        let side_rights = |c| {
            [
                rights.has(c, CastleSide::King),
                rights.has(c, CastleSide::Queen),
            ]
        };
        RefPos {
            board,
            turn: pos.side_to_move(),
            rights: [side_rights(Color::White), side_rights(Color::Black)],
            ep: pos.en_passant(),
        }
    }

    fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index() as usize]
    }

    fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index() as usize] = piece;
    }

    fn king(&self, color: Color) -> Option<Square> {
        Square::all().find(|&sq| self.get(sq) == Some(Piece::new(color, Role::King)))
    }

    /// The squares the piece on `from` attacks.
    fn attacks_from(&self, from: Square) -> Vec<Square> {
        let Some(piece) = self.get(from) else {
            return Vec::new();
        };
        let leaps = |offsets: &[(i8, i8)]| -> Vec<Square> {
            offsets
                .iter()
                .filter_map(|&(df, dr)| step(from, df, dr))
                .collect()
        };
        let rays = |dirs: &[(i8, i8)]| -> Vec<Square> {
            let mut squares = Vec::new();
            for &(df, dr) in dirs {
                let mut cur = from;
                while let Some(next) = step(cur, df, dr) {
                    squares.push(next);
                    if self.get(next).is_some() {
                        break;
                    }
                    cur = next;
                }
            }
            squares
        };
        match piece.role {
            Role::Pawn => leaps(&[(-1, forward(piece.color)), (1, forward(piece.color))]),
            Role::Knight => leaps(&KNIGHT_STEPS),
            Role::King => leaps(&KING_STEPS),
            Role::Bishop => rays(&BISHOP_DIRECTIONS),
            Role::Rook => rays(&ROOK_DIRECTIONS),
            Role::Queen => [rays(&ROOK_DIRECTIONS), rays(&BISHOP_DIRECTIONS)].concat(),
        }
    }

    fn attacked_by(&self, target: Square, by: Color) -> bool {
        Square::all().any(|from| {
            self.get(from).is_some_and(|p| p.color == by)
                && self.attacks_from(from).contains(&target)
        })
    }

    fn promotion_choices(rules: &Rules) -> Vec<Option<Role>> {
        let mut choices: Vec<Option<Role>> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
            .into_iter()
            .filter(|&r| rules.promotion.contains(r))
            .map(Some)
            .collect();
        if choices.is_empty() || rules.promotion.contains(Role::Pawn) {
            choices.push(None);
        }
        choices
    }

    fn pseudo_moves(&self, rules: &Rules) -> Vec<Move> {
        let us = self.turn;
        let mut moves = Vec::new();
        let mv = |from, to, kind| Move {
            from,
            to,
            promotion: None,
            kind,
        };
        for from in Square::all() {
            let Some(piece) = self.get(from) else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            if piece.role == Role::Pawn {
                let fwd = forward(us);
                let last_rank = home_rank(us.other()) as u8;
                let push_pawn_move = |moves: &mut Vec<Move>, to: Square, kind| {
                    if to.rank() == last_rank {
                        for promotion in RefPos::promotion_choices(rules) {
                            moves.push(Move {
                                from,
                                to,
                                promotion,
                                kind,
                            });
                        }
                    } else {
                        moves.push(mv(from, to, kind));
                    }
                };
                if let Some(one) = step(from, 0, fwd).filter(|&s| self.get(s).is_none()) {
                    push_pawn_move(&mut moves, one, MoveKind::Normal);
                    let start_rank = (home_rank(us) + fwd) as u8;
                    if rules.double_step
                        && from.rank() == start_rank
                        && let Some(two) = step(one, 0, fwd).filter(|&s| self.get(s).is_none())
                    {
                        let kind = if rules.en_passant {
                            MoveKind::DoubleStep
                        } else {
                            MoveKind::Normal
                        };
                        push_pawn_move(&mut moves, two, kind);
                    }
                }
                for df in [-1, 1] {
                    let Some(to) = step(from, df, fwd) else {
                        continue;
                    };
                    match self.get(to) {
                        Some(target) if target.color != us => {
                            push_pawn_move(&mut moves, to, MoveKind::Normal)
                        }
                        Some(_) => {}
                        None => {
                            let victim = step(to, 0, -fwd);
                            if rules.en_passant
                                && self.ep == Some(to)
                                && victim.and_then(|v| self.get(v))
                                    == Some(Piece::new(us.other(), Role::Pawn))
                            {
                                moves.push(mv(from, to, MoveKind::EnPassant));
                            }
                        }
                    }
                }
                continue;
            }
            for to in self.attacks_from(from) {
                if self.get(to).is_none_or(|p| p.color != us) {
                    moves.push(mv(from, to, MoveKind::Normal));
                }
            }
        }
        if rules.castling {
            let rank = home_rank(us);
            let e = at(4, rank).unwrap();
            if self.get(e) == Some(Piece::new(us, Role::King)) {
                // (right index, rook file, files that must be empty, king path files, king target)
                for (index, rook_file, empty, path, king_file) in [
                    (0, 7, &[5, 6][..], &[4, 5, 6][..], 6),
                    (1, 0, &[1, 2, 3][..], &[4, 3, 2][..], 2),
                ] {
                    let rook_ok =
                        self.get(at(rook_file, rank).unwrap()) == Some(Piece::new(us, Role::Rook));
                    let empty_ok = empty
                        .iter()
                        .all(|&f| self.get(at(f, rank).unwrap()).is_none());
                    let check_ok = !(rules.check == CheckRule::Legal
                        || rules.castling_avoids_attacks)
                        || path
                            .iter()
                            .all(|&f| !self.attacked_by(at(f, rank).unwrap(), us.other()));
                    if self.rights[us.index()][index] && rook_ok && empty_ok && check_ok {
                        moves.push(mv(e, at(king_file, rank).unwrap(), MoveKind::Castle));
                    }
                }
            }
        }
        moves
    }

    /// The position after `mv`, and the captured piece.
    fn make(&self, mv: &Move) -> (RefPos, Option<Piece>) {
        let mut next = self.clone();
        let piece = self.get(mv.from).expect("a piece to move");
        let mut captured = self.get(mv.to);
        next.set(mv.from, None);
        if mv.kind == MoveKind::EnPassant {
            let victim = at(mv.to.file() as i8, mv.from.rank() as i8).unwrap();
            captured = self.get(victim);
            next.set(victim, None);
        }
        let role = mv.promotion.unwrap_or(piece.role);
        next.set(mv.to, Some(Piece::new(piece.color, role)));
        if mv.kind == MoveKind::Castle {
            let rank = mv.to.rank() as i8;
            let (rook_from, rook_to) = if mv.to.file() == 6 { (7, 5) } else { (0, 3) };
            let rook = next.get(at(rook_from, rank).unwrap());
            next.set(at(rook_from, rank).unwrap(), None);
            next.set(at(rook_to, rank).unwrap(), rook);
        }
        for sq in [mv.from, mv.to] {
            for color in Color::ALL {
                let rank = home_rank(color) as u8;
                if sq.rank() == rank {
                    match sq.file() {
                        4 => next.rights[color.index()] = [false, false],
                        7 => next.rights[color.index()][0] = false,
                        0 => next.rights[color.index()][1] = false,
                        _ => {}
                    }
                }
            }
        }
        next.ep = None;
        if mv.kind == MoveKind::DoubleStep {
            next.ep = at(
                mv.from.file() as i8,
                (mv.from.rank() + mv.to.rank()) as i8 / 2,
            );
        }
        next.turn = self.turn.other();
        (next, captured)
    }

    fn moves(&self, rules: &Rules) -> Vec<Move> {
        let mut moves = self.pseudo_moves(rules);
        if rules.check == CheckRule::Legal {
            let us = self.turn;
            moves.retain(|m| self.get(m.to).is_none_or(|p| p.role != Role::King));
            if self.king(us).is_some() {
                moves.retain(|m| {
                    let (after, _) = self.make(m);
                    let king = after.king(us).expect("the king stays on the board");
                    !after.attacked_by(king, us.other())
                });
            }
        }
        moves
    }

    fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(rules)
            .iter()
            .map(|m| {
                let (after, captured) = self.make(m);
                if captured.is_some_and(|p| p.role == Role::King) {
                    u64::from(depth == 1)
                } else {
                    after.perft(rules, depth - 1)
                }
            })
            .sum()
    }
}

// ---------------------------------------------------------------------------------------------
// Comparison.
// ---------------------------------------------------------------------------------------------

fn move_key(m: &Move) -> String {
    format!("{}:{:?}", m.uci(), m.kind)
}

fn sorted_keys(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut keys: Vec<String> = moves.into_iter().map(|m| move_key(&m)).collect();
    keys.sort();
    keys
}

/// How often the rarer kinds of move came up, to show the random positions reach them.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    without_a_king: usize,
    castlings: usize,
    en_passants: usize,
    double_steps: usize,
    promotions: usize,
    stay_pawn_on_last_rank: usize,
    king_captures: usize,
}

/// Compares the move sets, then every move's resulting position; returns the moves.
fn compare(pos: &Position, rules: &Rules, coverage: &mut Coverage) -> Vec<Move> {
    let reference = RefPos::from_position(pos);
    let ours = pos.legal_moves(rules).to_vec();
    let expected = reference.moves(rules);
    assert_eq!(
        sorted_keys(ours.iter().copied()),
        sorted_keys(expected.iter().copied()),
        "moves of {} under {rules:?}",
        pos.fen()
    );
    assert_eq!(
        pos.count_moves(rules),
        ours.len() as u64,
        "count of {}",
        pos.fen()
    );
    assert_eq!(Position::from_fen(&pos.fen()).as_ref(), Ok(pos));
    coverage.positions += 1;
    if pos.king(Color::White).is_none() || pos.king(Color::Black).is_none() {
        coverage.without_a_king += 1;
    }
    for mv in &ours {
        assert!(pos.is_legal(mv, rules));
        match mv.kind {
            MoveKind::Castle => coverage.castlings += 1,
            MoveKind::EnPassant => coverage.en_passants += 1,
            MoveKind::DoubleStep => coverage.double_steps += 1,
            MoveKind::Normal => {}
        }
        let last_rank = mv.to.rank() == 0 || mv.to.rank() == 7;
        let pawn = pos.piece_at(mv.from).is_some_and(|p| p.role == Role::Pawn);
        if mv.promotion.is_some() {
            coverage.promotions += 1;
        } else if pawn && last_rank {
            coverage.stay_pawn_on_last_rank += 1;
        }
        let mut after = pos.clone();
        let outcome = after.play(mv);
        let (ref_after, ref_captured) = reference.make(mv);
        assert_eq!(
            RefPos::from_position(&after),
            ref_after,
            "{} played in {}",
            mv.uci(),
            pos.fen()
        );
        assert_eq!(
            outcome.captured,
            ref_captured,
            "{} in {}",
            mv.uci(),
            pos.fen()
        );
        assert_eq!(
            outcome.king_captured,
            ref_captured.is_some_and(|p| p.role == Role::King)
        );
        coverage.king_captures += usize::from(outcome.king_captured);
        assert_eq!(outcome.promoted, mv.promotion);
    }
    ours
}

// ---------------------------------------------------------------------------------------------
// Random positions.
// ---------------------------------------------------------------------------------------------

const PLAYOUT_STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/pPp3pp/8/3pP3/8/8/1p3PpP/R3K2R w KQkq d6 0 1",
];

/// Random games from the start positions; compares at every ply. Returns positions seen.
fn random_playouts(
    rules: &Rules,
    rng: &mut ChaCha8Rng,
    games: usize,
    max_plies: usize,
    coverage: &mut Coverage,
) {
    for game in 0..games {
        let mut pos = Position::from_fen(PLAYOUT_STARTS[game % PLAYOUT_STARTS.len()]).unwrap();
        for _ in 0..max_plies {
            let moves = compare(&pos, rules, coverage);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let outcome = pos.play(&mv);
            // A captured king ends a real game; going on half the time also covers play
            // without that king.
            if outcome.king_captured && rng.random_bool(0.5) {
                break;
            }
        }
    }
}

fn random_empty_square(pos: &Position, rng: &mut ChaCha8Rng) -> Square {
    loop {
        let sq = Square::new(rng.random_range(0..64)).unwrap();
        if pos.piece_at(sq).is_none() {
            return sq;
        }
    }
}

/// A random placement: kings as asked, up to 24 other pieces anywhere, sometimes castling
/// rights and an en passant square.
fn random_placement(rng: &mut ChaCha8Rng, kings: [bool; 2]) -> Position {
    let turn = if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let mut pos = Position::empty(turn);
    for color in Color::ALL {
        if !kings[color.index()] {
            continue;
        }
        if rng.random_bool(0.4) {
            // Home squares, so castling rights can exist.
            let home = CastleSide::king_from(color);
            if pos.piece_at(home).is_none() {
                pos.place(Piece::new(color, Role::King), home).unwrap();
            }
            for side in CastleSide::ALL {
                let rook_home = side.rook_from(color);
                if rng.random_bool(0.7) && pos.piece_at(rook_home).is_none() {
                    pos.place(Piece::new(color, Role::Rook), rook_home).unwrap();
                }
            }
        }
        if pos.king(color).is_none() {
            let sq = random_empty_square(&pos, rng);
            pos.place(Piece::new(color, Role::King), sq).unwrap();
        }
    }
    let others = rng.random_range(0..=24);
    for _ in 0..others {
        let role = [
            Role::Pawn,
            Role::Pawn,
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ][rng.random_range(0..7)];
        let color = if rng.random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        };
        let sq = random_empty_square(&pos, rng);
        pos.place(Piece::new(color, role), sq).unwrap();
    }
    let mut rights = CastlingRights::NONE;
    for color in Color::ALL {
        for side in CastleSide::ALL {
            if rng.random_bool(0.8) {
                rights = rights.with(color, side);
            }
        }
    }
    pos.set_castling_rights(rights);
    if rng.random_bool(0.4) {
        with_en_passant_chance(pos, rng)
    } else {
        pos
    }
}

/// Sets up an enemy pawn that has just double-stepped (and often a pawn of ours beside it), and
/// the matching en passant square.
fn with_en_passant_chance(mut pos: Position, rng: &mut ChaCha8Rng) -> Position {
    let us = pos.side_to_move();
    let (victim_rank, ep_rank, origin_rank) = match us {
        Color::White => (4, 5, 6),
        Color::Black => (3, 2, 1),
    };
    let file = rng.random_range(0..8u8);
    let square = |rank| Square::from_coords(file, rank).unwrap();
    if pos.piece_at(square(ep_rank)).is_some() || pos.piece_at(square(origin_rank)).is_some() {
        return pos;
    }
    if pos.piece_at(square(victim_rank)).is_none() {
        pos.place(Piece::new(us.other(), Role::Pawn), square(victim_rank))
            .unwrap();
    }
    for df in [-1i8, 1] {
        let beside = Square::from_coords((file as i8 + df) as u8, victim_rank);
        if let Some(sq) = beside.filter(|&s| pos.piece_at(s).is_none())
            && rng.random_bool(0.7)
        {
            pos.place(Piece::new(us, Role::Pawn), sq).unwrap();
        }
    }
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let ep = square(ep_rank).to_string();
    fields[3] = &ep;
    Position::from_fen(&fields.join(" ")).expect("valid en passant FEN")
}

fn random_placements(rules: &Rules, rng: &mut ChaCha8Rng, count: usize, coverage: &mut Coverage) {
    for i in 0..count {
        // Both kings, only White's, only Black's, none.
        let kings = [[true, true], [true, false], [false, true], [false, false]][i % 4];
        let pos = random_placement(rng, kings);
        compare(&pos, rules, coverage);
    }
}

/// Small perft counts, fast against reference, on a few positions of each kind.
fn perft_agrees(rules: &Rules, rng: &mut ChaCha8Rng) {
    let mut positions: Vec<Position> = PLAYOUT_STARTS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    for kings in [[true, true], [true, false], [false, false]] {
        positions.push(random_placement(rng, kings));
    }
    for pos in &positions {
        let depth = if pos.occupied().count() > 20 { 2 } else { 3 };
        assert_eq!(
            perft(pos, rules, depth),
            RefPos::from_position(pos).perft(rules, depth),
            "perft({depth}) of {} under {rules:?}",
            pos.fen()
        );
    }
}

/// Runs every check for one configuration and asserts that thousands of positions were seen.
fn check_configuration(rules: Rules, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = Coverage::default();
    random_playouts(&rules, &mut rng, 40, 60, &mut seen);
    random_placements(&rules, &mut rng, 1_500, &mut seen);
    perft_agrees(&rules, &mut rng);
    // Every feature the rules switch on was exercised, and nothing they switch off appeared.
    assert!(seen.positions >= 2_500, "{seen:?}");
    assert!(seen.without_a_king >= 1_000, "{seen:?}");
    assert_eq!(seen.castlings > 0, rules.castling, "{seen:?}");
    assert_eq!(seen.en_passants > 0, rules.en_passant, "{seen:?}");
    assert_eq!(
        seen.double_steps > 0,
        rules.en_passant && rules.double_step,
        "{seen:?}"
    );
    let promotes = rules.promotion.without(Role::Pawn).without(Role::King);
    assert_eq!(seen.promotions > 0, !promotes.is_empty(), "{seen:?}");
    assert_eq!(
        seen.stay_pawn_on_last_rank > 0,
        promotes.is_empty() || rules.promotion.contains(Role::Pawn),
        "{seen:?}"
    );
    assert_eq!(
        seen.king_captures > 0,
        rules.check == CheckRule::Ignored,
        "{seen:?}"
    );
}

fn promotions(roles: &[Role]) -> RoleSet {
    roles.iter().copied().collect()
}

// ---------------------------------------------------------------------------------------------
// One test per configuration.
// ---------------------------------------------------------------------------------------------

#[test]
fn standard_rules() {
    check_configuration(Rules::standard(), 1);
}

#[test]
fn castling_off() {
    check_configuration(
        Rules {
            castling: false,
            ..Rules::standard()
        },
        2,
    );
}

#[test]
fn en_passant_off() {
    check_configuration(
        Rules {
            en_passant: false,
            ..Rules::standard()
        },
        3,
    );
}

#[test]
fn double_step_off() {
    check_configuration(
        Rules {
            double_step: false,
            en_passant: false,
            ..Rules::standard()
        },
        4,
    );
}

#[test]
fn double_step_on_without_en_passant_and_castling() {
    check_configuration(
        Rules {
            castling: false,
            en_passant: false,
            ..Rules::standard()
        },
        5,
    );
}

#[test]
fn promotion_to_queen_only() {
    check_configuration(
        Rules {
            promotion: promotions(&[Role::Queen]),
            ..Rules::standard()
        },
        6,
    );
}

#[test]
fn promotion_to_minor_pieces_or_staying_a_pawn() {
    check_configuration(
        Rules {
            promotion: promotions(&[Role::Knight, Role::Bishop, Role::Pawn]),
            ..Rules::standard()
        },
        7,
    );
}

#[test]
fn no_promotion() {
    check_configuration(
        Rules {
            promotion: RoleSet::EMPTY,
            ..Rules::standard()
        },
        8,
    );
}

#[test]
fn check_ignored_with_castling_limits() {
    check_configuration(
        Rules {
            check: CheckRule::Ignored,
            castling_avoids_attacks: true,
            ..Rules::standard()
        },
        9,
    );
}

#[test]
fn check_ignored_castling_through_check() {
    check_configuration(
        Rules {
            check: CheckRule::Ignored,
            castling_avoids_attacks: false,
            ..Rules::standard()
        },
        10,
    );
}

#[test]
fn check_ignored_with_everything_else_off() {
    check_configuration(
        Rules {
            castling: false,
            en_passant: false,
            double_step: false,
            promotion: promotions(&[Role::Rook]),
            check: CheckRule::Ignored,
            castling_avoids_attacks: false,
        },
        11,
    );
}

#[test]
fn drop_variant_rules() {
    // No castling, single steps only, optional promotion: the rules of a drop variant.
    check_configuration(
        Rules {
            castling: false,
            en_passant: false,
            double_step: false,
            promotion: RoleSet::STANDARD_PROMOTIONS.with(Role::Pawn),
            check: CheckRule::Legal,
            castling_avoids_attacks: true,
        },
        12,
    );
}

/// The reference itself reproduces published counts, so agreement with it means something.
#[test]
fn reference_matches_published_counts() {
    let rules = Rules::standard();
    for (fen, depth, nodes) in [
        (PLAYOUT_STARTS[0], 3, 8_902),
        (PLAYOUT_STARTS[1], 2, 2_039),
        (PLAYOUT_STARTS[2], 2, 264),
        (PLAYOUT_STARTS[3], 3, 2_812),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(
            RefPos::from_position(&pos).perft(&rules, depth),
            nodes,
            "{fen}"
        );
    }
}

/// Under ignored check a king can be taken, and perft treats that as the end of the game.
#[test]
fn king_capture_ends_the_line() {
    let rules = Rules {
        check: CheckRule::Ignored,
        ..Rules::standard()
    };
    // White to move can take the black king with the rook.
    let pos = Position::from_fen("k7/8/8/8/8/8/8/R6K w - - 0 1").unwrap();
    let capture = pos
        .legal_moves(&rules)
        .into_iter()
        .find(|m| m.uci() == "a1a8")
        .expect("king capture is a move");
    let mut after = pos.clone();
    let outcome = after.play(&capture);
    assert!(outcome.king_captured);
    assert_eq!(after.king(Color::Black), None);
    assert_eq!(
        perft(&pos, &rules, 2),
        RefPos::from_position(&pos).perft(&rules, 2)
    );
    // Standard rules never capture a king, even in this illegal position.
    assert!(
        !pos.legal_moves(&Rules::standard())
            .iter()
            .any(|m| m.uci() == "a1a8")
    );
}
