//! The game interface: positions and moves.

use std::error::Error;
use std::fmt::Debug;
use std::hash::Hash;

use crate::outcome::Outcome;
use crate::side::Side;

/// A move of some game: small, `Copy`, comparable.
///
/// A xiangqi move is a from and a to point, a gomoku move one point, a connect6 move one stone
/// (a turn is two of them, see [`Position::side_to_move`]). Notation (parsing and printing) is
/// the position's job, since some notations (WXF, Chinese) need the position to resolve.
pub trait Move: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// A code unique among the moves of one game, stored in the transposition table. The
    /// search never turns a code back into a move: it looks the code up among the moves it
    /// generated, so a stale or colliding table entry can never produce an illegal move.
    fn code(self) -> u32;
}

/// A position of a two-player, perfect-information, turn-based game.
///
/// # Contract
/// - [`generate_moves`](Position::generate_moves) lists every legal move exactly once, or
///   reports the [`Outcome`] when the game is over (and then lists none). Finding the outcome
///   together with the moves means a searching node learns "no moves because the game ended"
///   once, not twice.
/// - [`play`](Position::play) then [`undo`](Position::undo) of the same move restores the
///   position exactly, including [`key`](Position::key) and the side to move.
/// - [`key`](Position::key) is a 64-bit Zobrist key kept up to date incrementally; positions
///   that differ (stones, pieces, side to move, stones still to place in the turn) have
///   different keys with overwhelming probability.
/// - The side to move may stay the same after a move: a connect6 turn is two stones, each of
///   them one ply of the search. The search negates scores only when
///   [`side_to_move`](Position::side_to_move) changes.
///
/// # Search aids
/// Methods with default bodies are optional capabilities the shared search uses when a game
/// fills them: ordering hints, quiescence moves, check extension, null-move pruning, late-move
/// reductions and repetition rules. Their defaults switch the capability off.
///
/// # Make/unmake or copy-make
/// The search uses play/undo on one position per thread, never clones in the tree, so a game
/// whose state is large (pattern tables of a 20x20 gomoku board) pays only for what a move
/// changes. A game that prefers copy-make can implement `undo` by restoring a saved copy from
/// an internal stack.
pub trait Position: Clone + Send + Sync + 'static {
    /// The game's move type.
    type Move: Move;

    /// The error [`parse_move`](Position::parse_move) returns: it names what was wrong, where,
    /// and what was expected.
    type MoveError: Error + Send + Sync + 'static;

    /// The side to move (for connect6, the side placing the next stone).
    fn side_to_move(&self) -> Side;

    /// Clears `moves` and fills it with every legal move of the side to move, each once.
    ///
    /// Returns `Some(outcome)` when the game is over (five in a row already on the board,
    /// checkmate or stalemate, a full board, a rule draw), and then leaves `moves` empty;
    /// `None` otherwise, and then `moves` is not empty. Must not allocate once `moves` has
    /// grown to the game's maximum.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>) -> Option<Outcome>;

    /// Plays a move returned by [`generate_moves`](Position::generate_moves) for this
    /// position. Playing any other move is a logic error: it may panic or corrupt the
    /// position (checked variants live in each game's own API).
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// The position's 64-bit Zobrist key.
    fn key(&self) -> u64;

    /// Parses a move in the game's standard notation and checks it is legal here.
    ///
    /// # Errors
    /// The game's [`MoveError`](Position::MoveError): unreadable text, a point off the board,
    /// an occupied point, an illegal move with the rule it breaks.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// Formats `mv` (legal in this position) in the game's standard notation, the one
    /// [`parse_move`](Position::parse_move) reads back.
    fn format_move(&self, mv: Self::Move) -> String;

    // ----- optional search aids -----

    /// The moves the search tries here: by default every legal move
    /// ([`generate_moves`](Position::generate_moves)). A game may return a subset that a
    /// strong player would never leave out (stone games: empty points near stones, only the
    /// blocks when the opponent has a four, a beam of connect6 stones), but never an empty
    /// list while the game is not over, and the same outcome as `generate_moves`.
    fn generate_search_moves(&self, moves: &mut Vec<Self::Move>) -> Option<Outcome> {
        self.generate_moves(moves)
    }

    /// The outcome at a leaf of the search without quiescence (see
    /// [`QUIESCENCE`](Position::QUIESCENCE)): `Some` exactly when
    /// [`generate_search_moves`](Position::generate_search_moves) would return `Some`, and
    /// the same outcome. The search needs no moves there, so a game that can tell a finished
    /// game without generating them (a six on the board) answers directly; `moves` is scratch
    /// space (its contents afterwards are unspecified). Default: `generate_search_moves`.
    fn leaf_outcome(&self, moves: &mut Vec<Self::Move>) -> Option<Outcome> {
        self.generate_search_moves(moves)
    }

    /// Plays `mv` at the search's horizon: the search then only asks the position its
    /// [`side_to_move`](Position::side_to_move), [`key`](Position::key),
    /// [`in_check`](Position::in_check), [`rule_outcome`](Position::rule_outcome),
    /// [`forced_result`](Position::forced_result), [`leaf_outcome`](Position::leaf_outcome)
    /// and its static evaluation before taking the move back with
    /// [`undo_leaf`](Position::undo_leaf), so a game may skip the updates only move
    /// generation and ordering need (connect6's stone values and candidate points). Only
    /// called in games without quiescence. Default: [`play`](Position::play).
    #[inline]
    fn play_leaf(&mut self, mv: Self::Move) {
        self.play(mv);
    }

    /// Takes back `mv` played by [`play_leaf`](Position::play_leaf) (the last move played).
    /// Default: [`undo`](Position::undo).
    #[inline]
    fn undo_leaf(&mut self, mv: Self::Move) {
        self.undo(mv);
    }

    /// An ordering hint: moves with a higher hint are searched first among the quiet moves,
    /// after the transposition-table move, and among the tactical moves (which all come
    /// before killers and quiet moves). Range `-1_000_000..=1_000_000`. Default 0.
    #[inline]
    fn order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// True for moves that change the material or threat balance (captures, fours): they are
    /// ordered first, never reduced by late-move reductions and never stored as killers.
    /// Default false.
    #[inline]
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Plies added to the late-move reduction of the quiet move `mv` (in this position, before
    /// it is played): positive for a move the game knows to be idle (it builds and blocks
    /// nothing), negative for one it knows to matter though it is not tactical. The result is
    /// still clamped to `0..depth-1`. Rapfi keys its reductions on its move picker's point
    /// score the same way ("policy based reduction"). Default 0.
    #[inline]
    fn reduction_adjustment(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether this game runs a quiescence search at the horizon (see
    /// [`generate_tactical`](Position::generate_tactical)). Default false: at depth 0 the
    /// search checks the outcome with `generate_moves` and returns the static evaluation.
    const QUIESCENCE: bool = false;

    /// Quiescence moves (captures for xiangqi, fours for gomoku): clears `moves` and fills it
    /// with the moves to try at and beyond the horizon when the side to move is not
    /// [`in_check`](Position::in_check) (in check, quiescence searches every legal move).
    /// Returns `Some(outcome)` when the game is already decided without needing a full move
    /// generation (a five on the board); it may return `None` for positions whose only ending
    /// is "no legal move" (stalemate), which quiescence does not look for. Only called when
    /// [`QUIESCENCE`](Position::QUIESCENCE) is true. Default: no moves.
    fn generate_tactical(&self, moves: &mut Vec<Self::Move>) -> Option<Outcome> {
        moves.clear();
        None
    }

    /// True when the side to move must answer a direct threat: in check (xiangqi), facing a
    /// four (gomoku). The search extends such nodes by one ply, never prunes them with a null
    /// move, and searches all moves in quiescence. Default false.
    #[inline]
    fn in_check(&self) -> bool {
        false
    }

    /// True when the move just played is forcing, so that the search extends it by one ply
    /// (with [`SearchOptions::check_extension`](crate::search::SearchOptions)), never prunes
    /// it by futility and never reduces it. Default: it leaves the side to move
    /// [`in_check`](Position::in_check). A game may add its own forcing moves (connect6: the
    /// first stone of a turn that makes a threat, so that the attacker's turns in a sequence
    /// of double threats cost no depth).
    #[inline]
    fn forcing(&self) -> bool {
        self.in_check()
    }

    /// Whether null-move pruning may be tried here: the game allows passing in search, and the
    /// position is not one where zugzwang is likely (few pieces, stalemate-wins endings).
    /// Default false.
    #[inline]
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Passes the move to the opponent (only called when
    /// [`null_move_allowed`](Position::null_move_allowed) returned true). Must update the
    /// key and change the side to move.
    fn play_null(&mut self) {}

    /// Takes back [`play_null`](Position::play_null).
    fn undo_null(&mut self) {}

    /// Whether late-move reductions are sound enough for this game. Default false.
    const LATE_MOVE_REDUCTIONS: bool = false;

    /// Rules that depend on the game's history rather than the board (repetition, perpetual
    /// check, a move-count draw), judged the way engines judge them in search.
    ///
    /// `plies_from_root` is the distance of this position from the search root: a game can
    /// call a position repeated as soon as it repeats once after the root, but twice at or
    /// before it (Pikafish's convention). Returns the outcome the rules give, or `None` to
    /// search on. Called before move generation at every node except the root. A game may
    /// play moves to judge (xiangqi replays a repetition cycle to see who chased) but must
    /// leave the position as it found it. Default `None`.
    #[inline]
    fn rule_outcome(&mut self, _plies_from_root: u32) -> Option<Outcome> {
        None
    }

    /// A forced result the position proves without search (Rapfi's quick win check), in
    /// signed plies: `Some(n)` with `n > 0` when the side to move wins by its move `n` plies
    /// from here at the latest whatever the opponent does (1: a win on the spot), `Some(-n)`
    /// when it loses `n` plies from here whatever it does. The search scores it as a mate at
    /// that distance at every node but the root, so it must be true: a claim that is not
    /// turns into a false mate. Called after [`Position::rule_outcome`], possibly on a
    /// position whose last move ended the game (return `None` there: the move generator
    /// reports the outcome). Default `None`.
    #[inline]
    fn forced_result(&self) -> Option<i32> {
        None
    }
}
