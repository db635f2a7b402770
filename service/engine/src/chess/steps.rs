//! The board steps of the pieces as (file step, rank step) pairs, shared by the 8 × 8 attack
//! tables and by the variants that walk a smaller board (Pigeon Chess's 3 × 4 grid). The order
//! of each list is fixed: callers that list moves in step order depend on it.

/// The eight L-shaped knight jumps.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The eight one-square king steps, anticlockwise from the file step to the right.
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The four straight directions a rook slides in.
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The four diagonal directions a bishop slides in.
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
