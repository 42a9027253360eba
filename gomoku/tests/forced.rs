//! The forced results the point classes prove without search (`Position::forced_result`,
//! Rapfi's quick win check) are true: every claim met in random games on small boards is
//! replayed by a search that tries every defence.

use game_core::{Outcome, Position};
use gomoku::pattern::Class;
use gomoku::{Board, Point, Rule};

/// A small deterministic generator (xorshift64*), so the games are the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Whether the side to move wins by its own move within `plies` plies against every defence.
/// Attacking moves are only those that can win that fast: a five with 1 or 2 plies left, a
/// four with 3 or 4, a three or a four with 5 (a proof among them is a proof).
fn wins_within(b: &mut Board, plies: i32) -> bool {
    let me = b.side_to_move();
    let mut legal = Vec::new();
    if plies < 1 || b.generate_moves(&mut legal).is_some() {
        return false;
    }
    legal.sort_by_key(|&m| std::cmp::Reverse(b.class(m, me)));
    legal.into_iter().any(|m| {
        let attack = match plies {
            1 | 2 => b.class(m, me) == Class::Five,
            3 | 4 => b.makes_four(m, me),
            _ => b.makes_four(m, me) || b.class(m, me) >= Class::Three,
        };
        if !attack {
            return false;
        }
        b.play(m);
        let won = match b.game_end() {
            Some((outcome, _)) => outcome == Outcome::Win(me),
            None => loses_within(b, plies - 1),
        };
        b.undo(m);
        won
    })
}

/// Whether the side to move loses within `plies` plies whatever it plays (every legal move).
fn loses_within(b: &mut Board, plies: i32) -> bool {
    let me = b.side_to_move();
    let mut legal = Vec::new();
    if let Some(outcome) = b.generate_moves(&mut legal) {
        return outcome == Outcome::Win(me.opponent());
    }
    legal.into_iter().all(|m| {
        b.play(m);
        let lost = match b.game_end() {
            Some((outcome, _)) => outcome == Outcome::Win(me.opponent()),
            None => wins_within(b, plies - 1),
        };
        b.undo(m);
        lost
    })
}

/// Whether a stone lies within two points of `p` (in a square).
fn near(b: &Board, p: Point) -> bool {
    let n = b.size() as i32;
    (-2..=2).any(|dy: i32| {
        (-2..=2).any(|dx: i32| {
            let (x, y) = (p.x() as i32 + dx, p.y() as i32 + dy);
            (0..n).contains(&x)
                && (0..n).contains(&y)
                && b.stone_at(x as usize, y as usize).is_some()
        })
    })
}

/// Plays random games (moves near the stones, threats preferred half the time) and checks
/// every claim; returns how many claims of each distance (-2, 1, 3, 5) were replayed.
fn check_claims(size: usize, rule: Rule, games: usize, seed: u64) -> [usize; 4] {
    let mut rng = Rng(seed);
    let mut seen = [0; 4];
    for _ in 0..games {
        let mut b = Board::new(size, rule).unwrap();
        b.play(Point::new(size / 2, size / 2));
        let mut legal = Vec::new();
        while b.generate_moves(&mut legal).is_none() {
            if let Some(plies) = b.forced_result() {
                let text = b.move_string();
                let proved = if plies > 0 {
                    wins_within(&mut b, plies)
                } else {
                    loses_within(&mut b, -plies)
                };
                assert!(
                    proved,
                    "{rule:?} {size}x{size} {text}: claimed {plies} plies"
                );
                assert_eq!(b.move_string(), text);
                seen[match plies {
                    -2 => 0,
                    1 => 1,
                    3 => 2,
                    _ => 3,
                }] += 1;
            }
            let me = b.side_to_move();
            let near: Vec<Point> = legal.iter().copied().filter(|&p| near(&b, p)).collect();
            let threats: Vec<Point> = near
                .iter()
                .copied()
                .filter(|&p| b.class(p, me) >= Class::Three)
                .collect();
            let pool = if !threats.is_empty() && rng.below(2) == 0 {
                &threats
            } else if near.is_empty() {
                &legal
            } else {
                &near
            };
            b.play(pool[rng.below(pool.len())]);
        }
    }
    seen
}

#[test]
fn forced_results_are_true_in_freestyle() {
    let seen = check_claims(9, Rule::Freestyle, 1000, 0x9e37_79b9_7f4a_7c15);
    assert!(seen.iter().all(|&n| n > 0), "claims seen: {seen:?}");
}

#[test]
fn forced_results_are_true_in_renju() {
    let seen = check_claims(9, Rule::Renju, 1000, 0x2545_f491_4f6c_dd1d);
    assert!(seen.iter().all(|&n| n > 0), "claims seen: {seen:?}");
}
