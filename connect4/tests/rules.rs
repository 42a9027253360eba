//! Connect Four rules against an independent, plain implementation (a grid of cells, four in
//! a row looked for cell by cell): perft counts, outcomes, the solver's values; the solved
//! results of small boards; refused input.

use connect4::{Column, Connect4Error, ConnectFour, Solver, Value};
use game_core::{Outcome, Position, Side};

/// The plain reference: cells by column and row, `None` empty.
#[derive(Clone)]
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<Vec<Option<Side>>>,
    to_move: Side,
    winner: Option<Side>,
    stones: usize,
}

impl Grid {
    fn new(w: usize, h: usize) -> Grid {
        Grid {
            w,
            h,
            cells: vec![vec![None; h]; w],
            to_move: Side::First,
            winner: None,
            stones: 0,
        }
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.stones == self.w * self.h
    }

    fn moves(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..self.w)
            .filter(|&c| self.cells[c][self.h - 1].is_none())
            .collect()
    }

    fn play(&mut self, c: usize) {
        let r = (0..self.h)
            .find(|&r| self.cells[c][r].is_none())
            .expect("room");
        let s = self.to_move;
        self.cells[c][r] = Some(s);
        self.stones += 1;
        for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut x, mut y) = (c as i32 + sign * dc, r as i32 + sign * dr);
                while x >= 0
                    && y >= 0
                    && (x as usize) < self.w
                    && (y as usize) < self.h
                    && self.cells[x as usize][y as usize] == Some(s)
                {
                    run += 1;
                    x += sign * dc;
                    y += sign * dr;
                }
            }
            if run >= 4 {
                self.winner = Some(s);
            }
        }
        self.to_move = s.opponent();
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|c| {
                let mut g = self.clone();
                g.play(c);
                g.perft(depth - 1)
            })
            .sum()
    }

    /// Plain alpha-beta over -1/0/1 for the side to move (no table, no pruning rules).
    fn value(&self, mut alpha: i32, beta: i32) -> i32 {
        if self.winner.is_some() {
            return -1; // the side that just moved won
        }
        if self.stones == self.w * self.h {
            return 0;
        }
        let mut best = -1;
        for c in self.moves() {
            let mut g = self.clone();
            g.play(c);
            let v = -g.value(-beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn perft(p: &mut ConnectFour, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    if p.generate_moves(&mut moves).is_some() {
        return 0;
    }
    let mut n = 0;
    for c in moves {
        p.play(c);
        n += perft(p, depth - 1);
        p.undo(c);
    }
    n
}

fn lcg(state: &mut u64) -> usize {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*state >> 33) as usize
}

#[test]
fn perft_matches_the_plain_count() {
    // No game can end before the seventh stone and no column fills before it: 7^n leaves;
    // at the seventh, the 7 lines that filled one column have 6 moves (7^7 - 7).
    let mut p = ConnectFour::standard();
    let closed = [1u64, 7, 49, 343, 2_401, 16_807, 117_649, 823_536];
    for (d, &n) in closed.iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32), n, "depth {d}");
    }
    let grid = Grid::new(7, 6);
    assert_eq!(perft(&mut p, 8), grid.perft(8), "depth 8");
    for (w, h) in [(4, 4), (5, 4), (9, 6), (4, 12)] {
        let mut p = ConnectFour::new(w, h).unwrap();
        let g = Grid::new(w, h);
        for d in 0..=7 {
            assert_eq!(perft(&mut p, d), g.perft(d), "{w}x{h} depth {d}");
        }
    }
}

#[test]
fn random_games_agree_with_the_plain_rules() {
    let mut rng = 7u64;
    for game in 0..300 {
        let (w, h) = [(7, 6), (4, 4), (9, 6), (5, 9)][game % 4];
        let mut p = ConnectFour::new(w, h).unwrap();
        let mut g = Grid::new(w, h);
        loop {
            let mut moves = Vec::new();
            let end = p.generate_moves(&mut moves);
            let mut expected: Vec<usize> = g.moves();
            let mut got: Vec<usize> = moves.iter().map(|c| c.index()).collect();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected, "game {game}:\n{p}");
            assert_eq!(p.key(), p.key_from_scratch());
            if g.over() {
                let want = g.winner.map_or(Outcome::Draw, Outcome::Win);
                assert_eq!(end, Some(want), "game {game}:\n{p}");
                assert_eq!(p.game_end(), Some(want));
                break;
            }
            assert_eq!(end, None);
            let c = moves[lcg(&mut rng) % moves.len()];
            p.play(c);
            g.play(c.index());
        }
    }
}

#[test]
fn the_solver_agrees_with_plain_alpha_beta_near_the_end() {
    let mut rng = 11u64;
    let mut solver = Solver::new(4);
    let mut checked = 0;
    while checked < 60 {
        let (w, h, empty) = [(7, 6, 11), (4, 4, 10), (5, 4, 11)][checked % 3];
        let mut p = ConnectFour::new(w, h).unwrap();
        let mut g = Grid::new(w, h);
        while !g.over() && w * h - g.stones > empty {
            let moves = g.moves();
            let c = moves[lcg(&mut rng) % moves.len()];
            p.play(Column(c as u8));
            g.play(c);
        }
        if g.over() {
            continue;
        }
        let want = match g.value(-1, 1) {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        };
        assert_eq!(solver.solve(&p), want, "{p}");
        checked += 1;
    }
}

#[test]
fn small_boards_are_draws() {
    // 4x4: a draw with perfect play (John Tromp's table of solved board sizes); checked with
    // the plain alpha-beta as well.
    let mut solver = Solver::new(16);
    let p = ConnectFour::new(4, 4).unwrap();
    assert_eq!(Grid::new(4, 4).value(-1, 1), 0);
    assert_eq!(solver.solve(&p), Value::Draw);
}

/// The solved result of the standard board (Allen; Allis, 1988): the first player wins by
/// the centre column only; the columns next to it draw, the others lose. A full solve takes
/// minutes: `cargo test --release -p connect4 -- --ignored`.
#[test]
#[ignore = "a full solve of 7x6 takes minutes"]
fn the_first_player_wins_7x6_only_in_the_centre() {
    let mut solver = Solver::new(256);
    let values: Vec<Value> = solver
        .solve_moves(&ConnectFour::standard())
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    use Value::{Draw, Loss, Win};
    assert_eq!(values, [Loss, Loss, Draw, Win, Draw, Loss, Loss]);
}

#[test]
fn wins_and_draws_by_the_rules() {
    // Vertical, horizontal and both diagonals, for both sides.
    for (moves, winner) in [
        ("1212121", Side::First),
        ("1122334", Side::First),
        ("71122334", Side::Second),
        ("12233434744", Side::First),
        ("76655454144", Side::First),
    ] {
        let p = ConnectFour::from_moves(7, 6, moves).unwrap();
        assert_eq!(p.game_end(), Some(Outcome::Win(winner)), "{moves}:\n{p}");
        let mut v = Vec::new();
        assert_eq!(p.generate_moves(&mut v), Some(Outcome::Win(winner)));
        assert!(v.is_empty());
    }
    // A full 4x4 board without four: rows X O X O, X O X O, O X O X, O X O X from the bottom.
    let full = ConnectFour::from_moves(4, 4, "1234123421432143").unwrap();
    assert_eq!(full.game_end(), Some(Outcome::Draw), "{full}");
}

#[test]
fn refused_input_says_why_and_changes_nothing() {
    assert_eq!(
        ConnectFour::new(3, 6).unwrap_err(),
        Connect4Error::BadSize {
            width: 3,
            height: 6
        }
    );
    assert!(ConnectFour::new(9, 7).is_err(), "(7 + 1) x 9 > 64");
    assert!(ConnectFour::new(10, 4).is_err());
    let mut p = ConnectFour::from_moves(7, 6, "444444").unwrap();
    let before = p;
    assert_eq!(
        p.parse_move("4").unwrap_err(),
        Connect4Error::ColumnFull { column: 4 }
    );
    assert_eq!(
        p.try_play(Column(3)),
        Err(Connect4Error::ColumnFull { column: 4 })
    );
    for bad in ["0", "8", "h", "44", "", "x1", "é"] {
        let e = p.parse_move(bad).unwrap_err();
        assert!(matches!(e, Connect4Error::NotAColumn { .. }), "{bad}: {e}");
        assert!(e.to_string().contains("1..7"), "{e}");
    }
    assert_eq!(p, before);
    assert_eq!(
        p.parse_move(" d ").unwrap_err(),
        Connect4Error::ColumnFull { column: 4 }
    );
    assert_eq!(p.parse_move("C"), Ok(Column(2)));
    let e = ConnectFour::from_moves(7, 6, "1212121 3").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("move 8 ('3') of the list: the game is over"),
        "{e}"
    );
    let won = ConnectFour::from_moves(7, 6, "1212121").unwrap();
    assert!(matches!(
        won.parse_move("3"),
        Err(Connect4Error::GameOver(_))
    ));
}

#[test]
fn search_aids_follow_the_threats() {
    // X to move with three in column 1 (and O three in column 2): the only search move is
    // the win.
    let p = ConnectFour::from_moves(7, 6, "121212").unwrap();
    let mut v = Vec::new();
    assert_eq!(p.generate_search_moves(&mut v), None);
    assert_eq!(v, [Column(0)]);
    assert!(p.is_winning_move(Column(0)));
    assert!(p.is_tactical(Column(0)) && p.is_tactical(Column(1)));
    assert!(!p.is_tactical(Column(3)));
    // O to move facing X's three: in check, and only the block is searched.
    let t = ConnectFour::from_moves(7, 6, "12121").unwrap();
    assert!(t.in_check());
    assert_eq!(t.generate_search_moves(&mut v), None);
    assert_eq!(v, [Column(0)]);
    // Moves come from the centre out.
    let e = ConnectFour::standard();
    assert_eq!(e.generate_moves(&mut v), None);
    assert_eq!(
        v.iter().map(|c| c.index()).collect::<Vec<_>>(),
        [3, 2, 4, 1, 5, 0, 6]
    );
}
