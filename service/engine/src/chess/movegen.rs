//! Move generation.
//!
//! One generator serves every rule set. With [`CheckRule::Legal`] and a king on the board it
//! works out the checking pieces and the pinned pieces first and emits only legal moves; a side
//! without a king, and every side under [`CheckRule::Ignored`], gets pseudo-legal moves. Moves
//! go to a [`MoveSink`]: a [`MoveList`] collects them, a [`MoveCounter`] only counts them (the
//! last ply of perft needs nothing more).

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::castling::CastleSide;
use super::moves::{Move, MoveKind, MoveList};
use super::piece::{Color, Role};
use super::position::Position;
use super::rules::{CheckRule, Rules};
use super::square::Square;

/// The choices for a pawn reaching the last rank, in generation order (`None` = stays a pawn).
#[derive(Clone, Copy)]
pub(crate) struct Promotions {
    choices: [Option<Role>; 5],
    len: usize,
}

impl Promotions {
    /// The choices the rules allow: the roles of the set, strongest first (a king in the set is
    /// ignored: a side has at most one king), then staying a pawn if the set holds the pawn or
    /// nothing else.
    pub(crate) fn new(rules: &Rules) -> Promotions {
        let mut choices = [None; 5];
        let mut len = 0;
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            if rules.promotion.contains(role) {
                choices[len] = Some(role);
                len += 1;
            }
        }
        if len == 0 || rules.promotion.contains(Role::Pawn) {
            choices[len] = None;
            len += 1;
        }
        Promotions { choices, len }
    }

    /// The choices, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Option<Role>> + '_ {
        self.choices[..self.len].iter().copied()
    }
}

/// Receives generated moves. Every method but [`MoveSink::add`] has a default that adds the
/// moves one by one, in the order every sink sees them; a sink that needs no single moves
/// (the counter) overrides them.
pub(crate) trait MoveSink {
    /// Ordinary moves of the piece on `from` to each square of `targets`.
    #[inline]
    fn add_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.add(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// Pawn moves to each square of `targets`, each from `delta` squares back.
    #[inline]
    fn add_pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        for to in targets {
            self.add(Move::new(from_delta(to, delta), to, kind));
        }
    }

    /// Pawn moves onto the last rank, each from `delta` squares back, once per choice.
    fn add_promotions(&mut self, targets: Bitboard, delta: i8, choices: &Promotions) {
        for to in targets {
            for promotion in choices.iter() {
                self.add(Move {
                    from: from_delta(to, delta),
                    to,
                    promotion,
                    kind: MoveKind::Normal,
                });
            }
        }
    }

    /// One move.
    fn add(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline]
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Hands each move to a closure, for callers that keep the moves in their own form.
struct Visitor<F>(F);

impl<F: FnMut(Move)> MoveSink for Visitor<F> {
    #[inline]
    fn add(&mut self, mv: Move) {
        (self.0)(mv);
    }
}

/// Counts moves without storing them.
#[derive(Default)]
pub(crate) struct MoveCounter(pub(crate) u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn add_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn add_pawn_moves(&mut self, targets: Bitboard, _delta: i8, _kind: MoveKind) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn add_promotions(&mut self, targets: Bitboard, _delta: i8, choices: &Promotions) {
        self.0 += u64::from(targets.count()) * choices.len as u64;
    }

    #[inline]
    fn add(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

#[inline]
fn from_delta(to: Square, delta: i8) -> Square {
    Square::new_unchecked((to.index() as i8 - delta) as u8)
}

/// What the generator works out once per position.
struct Context<'a> {
    pos: &'a Position,
    rules: &'a Rules,
    us: Color,
    them: Color,
    theirs: Bitboard,
    occupied: Bitboard,
    king: Option<Square>,
    /// Squares a move may land on: not our own pieces, and under legal rules not the enemy king.
    target: Bitboard,
    /// Squares that deal with a single check (the checker and the squares between); every
    /// square when not in check.
    check_mask: Bitboard,
    /// Our pieces pinned to our king (legal rules only).
    pinned: Bitboard,
    /// Our pieces whose moves are generated (all of them but for a search for one move).
    movers: Bitboard,
    legal: bool,
}

impl Context<'_> {
    /// Whether our king would be attacked on `sq` with our king lifted off the board.
    #[inline]
    fn king_square_attacked(&self, sq: Square, occupied: Bitboard) -> bool {
        (self.pos.attackers_to(sq, occupied) & self.theirs).has_any()
    }

    /// The squares a pinned piece on `from` may move along (every square if not pinned).
    #[inline]
    fn pin_restriction(&self, from: Square) -> Bitboard {
        match self.king {
            Some(k) if self.pinned.contains(from) => line(k, from),
            _ => Bitboard::FULL,
        }
    }
}

/// Generates the moves of the side to move under `rules` into `sink`.
pub(crate) fn generate<S: MoveSink>(pos: &Position, rules: &Rules, sink: &mut S) {
    generate_from(pos, rules, Bitboard::FULL, sink);
}

/// Generates the moves of the side to move under `rules` that start on a square of `from`, in
/// the order [`generate`] gives them: every piece's moves depend only on the position, so
/// leaving out the other pieces leaves exactly the other pieces' moves out.
fn generate_from<S: MoveSink>(pos: &Position, rules: &Rules, from: Bitboard, sink: &mut S) {
    let us = pos.turn;
    let them = us.other();
    let ours = pos.by_color[us.index()];
    let theirs = pos.by_color[them.index()];
    let occupied = ours | theirs;
    let kings = pos.by_role[Role::King.index()];
    let legal = rules.check == CheckRule::Legal;
    let target = if legal {
        !(ours | (kings & theirs))
    } else {
        !ours
    };
    let king = (kings & ours).first();
    let mut ctx = Context {
        pos,
        rules,
        us,
        them,
        theirs,
        occupied,
        king,
        target,
        check_mask: Bitboard::FULL,
        pinned: Bitboard::EMPTY,
        movers: ours & from,
        legal,
    };
    let king_moves_too = king.is_some_and(|k| ctx.movers.contains(k));
    if legal && let Some(k) = king {
        let checkers = pos.attackers_to(k, occupied) & theirs;
        if let Some(checker) = checkers.first() {
            if checkers.has_several() {
                // Double check: only the king can move.
                if king_moves_too {
                    king_moves(&ctx, k, sink);
                }
                return;
            }
            ctx.check_mask = between(k, checker).with(checker);
        }
        ctx.pinned = pinned_pieces(pos, k, us, occupied);
    }

    pawn_moves(&ctx, sink);

    let piece_target = ctx.target & ctx.check_mask;
    let movers = ctx.movers;
    for from in pos.pieces(us, Role::Knight) & movers & !ctx.pinned {
        sink.add_targets(from, knight_attacks(from) & piece_target);
    }
    let queens = pos.pieces(us, Role::Queen);
    for from in (pos.pieces(us, Role::Bishop) | queens) & movers {
        let targets = bishop_attacks(from, occupied) & piece_target & ctx.pin_restriction(from);
        sink.add_targets(from, targets);
    }
    for from in (pos.pieces(us, Role::Rook) | queens) & movers {
        let targets = rook_attacks(from, occupied) & piece_target & ctx.pin_restriction(from);
        sink.add_targets(from, targets);
    }
    if let Some(k) = king
        && king_moves_too
    {
        king_moves(&ctx, k, sink);
        if rules.castling {
            castling_moves(&ctx, k, sink);
        }
    }
}

/// Our pieces that stand alone between our king on `k` and an enemy slider.
fn pinned_pieces(pos: &Position, k: Square, us: Color, occupied: Bitboard) -> Bitboard {
    let theirs = pos.by_color[us.other().index()];
    let queens = pos.by_role[Role::Queen.index()];
    let straight = pos.by_role[Role::Rook.index()] | queens;
    let diagonal = pos.by_role[Role::Bishop.index()] | queens;
    let snipers = ((rook_attacks(k, Bitboard::EMPTY) & straight)
        | (bishop_attacks(k, Bitboard::EMPTY) & diagonal))
        & theirs;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = between(k, sniper) & occupied;
        if blockers.has_any() && !blockers.has_several() {
            pinned |= blockers;
        }
    }
    pinned & pos.by_color[us.index()]
}

fn king_moves<S: MoveSink>(ctx: &Context<'_>, k: Square, sink: &mut S) {
    let mut targets = king_attacks(k) & ctx.target;
    if ctx.legal {
        let without_king = ctx.occupied.without(k);
        for to in targets {
            if ctx.king_square_attacked(to, without_king) {
                targets = targets.without(to);
            }
        }
    }
    sink.add_targets(k, targets);
}

fn castling_moves<S: MoveSink>(ctx: &Context<'_>, k: Square, sink: &mut S) {
    let pos = ctx.pos;
    if k != CastleSide::king_from(ctx.us) || !pos.castling.any(ctx.us) {
        return;
    }
    for side in CastleSide::ALL {
        if !pos.castling.has(ctx.us, side)
            || !pos
                .pieces(ctx.us, Role::Rook)
                .contains(side.rook_from(ctx.us))
            || (side.path(ctx.us) & ctx.occupied).has_any()
        {
            continue;
        }
        let king_to = side.king_to(ctx.us);
        if ctx.rules.strict_castling() {
            // Not out of, through or into check.
            let crossed = between(k, king_to).with(k).with(king_to);
            if crossed
                .into_iter()
                .any(|sq| ctx.king_square_attacked(sq, ctx.occupied))
            {
                continue;
            }
        }
        sink.add(Move::new(k, king_to, MoveKind::Castle));
    }
}

fn pawn_moves<S: MoveSink>(ctx: &Context<'_>, sink: &mut S) {
    let pawns = ctx.pos.pieces(ctx.us, Role::Pawn) & ctx.movers;
    if pawns.is_empty() {
        return;
    }
    let promotions = Promotions::new(ctx.rules);
    pawn_set_moves(ctx, sink, pawns & !ctx.pinned, Bitboard::FULL, &promotions);
    if let Some(k) = ctx.king {
        for from in pawns & ctx.pinned {
            pawn_set_moves(
                ctx,
                sink,
                Bitboard::from_square(from),
                line(k, from),
                &promotions,
            );
        }
    }
    if ctx.rules.en_passant {
        en_passant_moves(ctx, sink, pawns);
    }
}

/// Pushes and captures (not en passant) of the pawns in `pawns`, landing inside `restrict`.
fn pawn_set_moves<S: MoveSink>(
    ctx: &Context<'_>,
    sink: &mut S,
    pawns: Bitboard,
    restrict: Bitboard,
    promotions: &Promotions,
) {
    let (up, after_first_step, last_rank) = match ctx.us {
        Color::White => (8i8, Bitboard::RANK_3, Bitboard::RANK_8),
        Color::Black => (-8i8, Bitboard::RANK_6, Bitboard::RANK_1),
    };
    let empty = !ctx.occupied;
    let allowed = ctx.check_mask & restrict;
    let single = pawns.shift(up) & empty;
    if ctx.rules.double_step {
        let double = (single & after_first_step).shift(up) & empty & allowed;
        let kind = if ctx.rules.en_passant {
            MoveKind::DoubleStep
        } else {
            MoveKind::Normal
        };
        sink.add_pawn_moves(double, 2 * up, kind);
    }
    let single = single & allowed;
    sink.add_pawn_moves(single & !last_rank, up, MoveKind::Normal);
    sink.add_promotions(single & last_rank, up, promotions);

    let capturable = ctx.theirs & ctx.target & allowed;
    for (movers, delta) in [
        (pawns & !Bitboard::FILE_A, up - 1),
        (pawns & !Bitboard::FILE_H, up + 1),
    ] {
        let captures = movers.shift(delta) & capturable;
        sink.add_pawn_moves(captures & !last_rank, delta, MoveKind::Normal);
        sink.add_promotions(captures & last_rank, delta, promotions);
    }
}

fn en_passant_moves<S: MoveSink>(ctx: &Context<'_>, sink: &mut S, pawns: Bitboard) {
    let Some(ep) = ctx.pos.ep else {
        return;
    };
    let behind = match ctx.us {
        Color::White => ep.offset(0, -1),
        Color::Black => ep.offset(0, 1),
    };
    let Some(victim) = behind else {
        return;
    };
    if ctx.occupied.contains(ep) || !ctx.pos.pieces(ctx.them, Role::Pawn).contains(victim) {
        return;
    }
    for from in pawn_attacks(ctx.them, ep) & pawns {
        if ctx.legal
            && let Some(k) = ctx.king
        {
            // Two pawns leave their squares at once, which pin and check bookkeeping does not
            // cover: look at the king's safety on the resulting board directly.
            let after = ctx.occupied.without(from).without(victim).with(ep);
            let attackers = ctx.pos.attackers_to(k, after) & ctx.theirs.without(victim);
            if attackers.has_any() {
                continue;
            }
        }
        sink.add(Move::new(from, ep, MoveKind::EnPassant));
    }
}

impl Position {
    /// The moves of the side to move under `rules`: legal moves with [`CheckRule::Legal`],
    /// pseudo-legal moves (king captures included) with [`CheckRule::Ignored`].
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        generate(self, rules, &mut list);
        list
    }

    /// Calls `visit` with each move [`Position::legal_moves`] would return, in the same order,
    /// without building the list.
    pub fn visit_legal_moves(&self, rules: &Rules, visit: impl FnMut(Move)) {
        generate(self, rules, &mut Visitor(visit));
    }

    /// The move [`Position::legal_moves`] lists from `from` to `to` with `promotion`, if any.
    /// Only the moves of the piece on `from` are generated, so checking one move costs a
    /// fraction of listing them all.
    pub fn find_legal_move(
        &self,
        rules: &Rules,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Option<Move> {
        let mut found = None;
        let mut visitor = Visitor(|mv: Move| {
            if found.is_none() && mv.to == to && mv.promotion == promotion {
                found = Some(mv);
            }
        });
        generate_from(self, rules, Bitboard::from_square(from), &mut visitor);
        found
    }

    /// The number of moves [`Position::legal_moves`] would return, without listing them.
    pub fn count_moves(&self, rules: &Rules) -> u64 {
        let mut counter = MoveCounter::default();
        generate(self, rules, &mut counter);
        counter.0
    }

    /// Whether `mv` is one of the moves of the side to move under `rules`.
    pub fn is_legal(&self, mv: &Move, rules: &Rules) -> bool {
        self.legal_moves(rules).contains(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Piece, RoleSet};

    fn ucis(pos: &Position, rules: &Rules) -> Vec<String> {
        let mut list: Vec<String> = pos.legal_moves(rules).iter().map(Move::uci).collect();
        list.sort();
        list
    }

    #[test]
    fn double_step_is_a_normal_move_without_en_passant() {
        let pos = Position::startpos();
        let kinds = |rules: &Rules| {
            pos.legal_moves(rules)
                .into_iter()
                .find(|m| m.uci() == "e2e4")
                .map(|m| m.kind)
        };
        assert_eq!(kinds(&Rules::standard()), Some(MoveKind::DoubleStep));
        let no_ep = Rules {
            en_passant: false,
            ..Rules::standard()
        };
        assert_eq!(kinds(&no_ep), Some(MoveKind::Normal));
        let no_double = Rules {
            double_step: false,
            ..Rules::standard()
        };
        assert_eq!(kinds(&no_double), None);
        assert_eq!(Position::startpos().count_moves(&no_double), 12);
    }

    #[test]
    fn promotion_choices_follow_the_rules() {
        let pos = Position::from_fen("7k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let pawn_moves = |promotion: RoleSet| {
            let rules = Rules {
                promotion,
                ..Rules::standard()
            };
            ucis(&pos, &rules)
                .into_iter()
                .filter(|m| m.starts_with("a7"))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            pawn_moves(RoleSet::STANDARD_PROMOTIONS),
            ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
        );
        assert_eq!(pawn_moves(RoleSet::EMPTY), ["a7a8"]);
        assert_eq!(
            pawn_moves(RoleSet::EMPTY.with(Role::Queen).with(Role::Pawn)),
            ["a7a8", "a7a8q"]
        );
        assert_eq!(pawn_moves(RoleSet::EMPTY.with(Role::King)), ["a7a8"]);
    }

    #[test]
    fn check_rules_decide_king_safety_and_king_captures() {
        // The white king on e1 is in check from the rook on e8, and the white rook on b2
        // attacks the black king on a2: capturing it is a move only when check is ignored.
        let pos = Position::from_fen("4r3/8/8/8/8/8/kR6/4K3 w - - 0 1").unwrap();
        let legal = ucis(&pos, &Rules::standard());
        assert!(legal.iter().all(|m| m.starts_with("e1") || m == "b2e2"));
        assert!(!legal.contains(&"b2a2".to_owned()));
        let ignored = Rules {
            check: CheckRule::Ignored,
            ..Rules::standard()
        };
        let pseudo = ucis(&pos, &ignored);
        assert!(pseudo.contains(&"b2a2".to_owned()));
        assert!(pseudo.contains(&"e1e2".to_owned()));
    }

    #[test]
    fn a_side_without_a_king_moves_freely() {
        let mut pos = Position::empty(Color::White);
        pos.place(Piece::new(Color::White, Role::Knight), Square::A1)
            .unwrap();
        pos.place(Piece::new(Color::Black, Role::Queen), Square::H8)
            .unwrap();
        assert_eq!(ucis(&pos, &Rules::standard()), ["a1b3", "a1c2"]);
        pos.set_side_to_move(Color::Black);
        assert_eq!(pos.count_moves(&Rules::standard()), 21);
        assert!(!pos.in_check(Color::White));
    }

    #[test]
    fn castling_avoids_attacks_decides_castling_through_attacked_squares() {
        // The black rook on f8 attacks f1, which the king passes when castling short.
        let pos = Position::from_fen("k4r2/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let castles = |rules: &Rules| {
            pos.legal_moves(rules)
                .iter()
                .any(|m| m.kind == MoveKind::Castle)
        };
        assert!(!castles(&Rules::standard()));
        let strict = Rules {
            check: CheckRule::Ignored,
            castling_avoids_attacks: true,
            ..Rules::standard()
        };
        assert!(!castles(&strict));
        let free = Rules {
            castling_avoids_attacks: false,
            ..strict
        };
        assert!(castles(&free));
        let off = Rules {
            castling: false,
            ..free
        };
        assert!(!castles(&off));
    }

    #[test]
    fn find_legal_move_finds_exactly_the_listed_moves() {
        // Pins, a single and a double check, en passant, castling and promotions.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/8/8/8/8/r3K2r w - - 0 1",
            "4k3/8/8/2b5/8/8/3r4/4K3 w - - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        ];
        let variants = [
            Rules::standard(),
            Rules {
                check: CheckRule::Ignored,
                ..Rules::standard()
            },
            Rules {
                promotion: RoleSet::EMPTY.with(Role::Queen).with(Role::Pawn),
                castling: false,
                en_passant: false,
                ..Rules::standard()
            },
        ];
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Rook),
            Some(Role::Bishop),
            Some(Role::Knight),
            Some(Role::King),
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for rules in &variants {
                let listed = pos.legal_moves(rules);
                let mut found = 0;
                for from in Bitboard::FULL {
                    for to in Bitboard::FULL {
                        for promotion in promotions {
                            let expected = listed.iter().copied().find(|mv| {
                                mv.from == from && mv.to == to && mv.promotion == promotion
                            });
                            let actual = pos.find_legal_move(rules, from, to, promotion);
                            assert_eq!(actual, expected, "{fen}: {from}{to} {promotion:?}");
                            found += usize::from(actual.is_some());
                        }
                    }
                }
                assert_eq!(found, listed.len(), "{fen}: every listed move is found");
            }
        }
    }

    #[test]
    fn visiting_gives_the_listed_moves_in_order() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let mut visited = Vec::new();
        pos.visit_legal_moves(&Rules::standard(), |mv| visited.push(mv));
        assert_eq!(visited, pos.legal_moves(&Rules::standard()).to_vec());
        assert_eq!(visited.len(), 48);
    }

    #[test]
    fn parse_uci_finds_only_listed_moves() {
        let pos = Position::startpos();
        let rules = Rules::standard();
        assert!(Move::parse_uci("g1f3", &pos, &rules).is_ok());
        assert!(matches!(
            Move::parse_uci("e2e5", &pos, &rules),
            Err(crate::chess::ParseMoveError::Illegal(_))
        ));
        assert!(matches!(
            Move::parse_uci("e2", &pos, &rules),
            Err(crate::chess::ParseMoveError::Syntax(_))
        ));
        assert!(matches!(
            Move::parse_uci("e7e8Q", &pos, &rules),
            Err(crate::chess::ParseMoveError::Syntax(_))
        ));
        assert!(pos.is_legal(&Move::parse_uci("e2e4", &pos, &rules).unwrap(), &rules));
    }
}
