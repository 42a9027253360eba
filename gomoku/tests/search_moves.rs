//! The shape of the search: which moves the main search tries under threats (checked against a
//! slow reference that tries every point), and that the root threat searches never starve
//! the main search.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game_core::{Position, Side};
use gomoku::pattern::Class;
use gomoku::{Board, Engine, Limits, Point, Rule, Source};

/// A small deterministic generator (SplitMix64), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Random games near the centre, stopped as soon as `stop` holds (and no five is on the board).
fn positions(rule: Rule, count: usize, seed: u64, stop: impl Fn(&Board) -> bool) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut found = Vec::new();
    let mut tries = 0;
    while found.len() < count {
        tries += 1;
        assert!(tries < 200_000, "too few positions of the wanted kind");
        let mut b = Board::new(15, rule).unwrap();
        for _ in 0..40 {
            if b.game_end().is_some() {
                break;
            }
            if b.stone_count() > 0 && stop(&b) {
                found.push(b.clone());
                break;
            }
            let legal: Vec<Point> = b
                .points()
                .filter(|&p| b.is_legal(p) && (3..12).contains(&p.x()) && (3..12).contains(&p.y()))
                .collect();
            if legal.is_empty() {
                break;
            }
            b.play(legal[rng.next() as usize % legal.len()]);
        }
    }
    found
}

/// Slow reference: does a stone of `side` on the empty `p` give `side` a five to play (or make
/// a five)? A renju Black double four on one line counts (White may defend on its point).
fn stone_makes_four(b: &Board, p: Point, side: Side) -> bool {
    let mut c = b.clone();
    c.place(p, side);
    c.class_count(side, Class::Five) > 0 || five_on_board(&c, p, side)
}

fn five_on_board(b: &Board, p: Point, side: Side) -> bool {
    const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    DIRS.iter().any(|&(dx, dy)| {
        let run = |s: i64| {
            (1..)
                .take_while(|k| {
                    let (x, y) = (p.x() as i64 + s * k * dx, p.y() as i64 + s * k * dy);
                    (0..15).contains(&x)
                        && (0..15).contains(&y)
                        && b.stone(Point::new(x as usize, y as usize)) == Some(side)
                })
                .count()
        };
        let len = 1 + run(1) + run(-1);
        // Exactly five under the standard rule and for Black under renju.
        match b.rule() {
            Rule::Freestyle => len >= 5,
            Rule::Renju if side == Side::Second => len >= 5,
            _ => len == 5,
        }
    })
}

fn search_moves(b: &Board) -> Vec<Point> {
    let mut moves = Vec::new();
    assert!(b.generate_search_moves(&mut moves).is_none());
    moves.sort_by_key(|p| (p.y(), p.x()));
    moves
}

#[test]
fn facing_a_four_only_the_blocks_are_searched() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let boards = positions(rule, 40, 11, |b| {
            let opp = b.side_to_move().opponent();
            b.has_five_point(opp) && !b.has_five_point(b.side_to_move())
        });
        for b in boards {
            let opp = b.side_to_move().opponent();
            let mut expected: Vec<Point> = b
                .points()
                .filter(|&p| {
                    b.is_legal(p) && {
                        let mut c = b.clone();
                        c.place(p, opp);
                        five_on_board(&c, p, opp)
                    }
                })
                .collect();
            expected.sort_by_key(|p| (p.y(), p.x()));
            if expected.is_empty() {
                continue; // Black's only block is forbidden: every move loses.
            }
            assert_eq!(search_moves(&b), expected, "{rule:?} {}", b.move_string());
        }
    }
}

#[test]
fn facing_an_open_three_only_fours_and_defences_are_searched() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let boards = positions(rule, 40, 23, |b| {
            let me = b.side_to_move();
            let opp = me.opponent();
            !b.has_five_point(me)
                && !b.has_five_point(opp)
                && b.class_count(me, Class::OpenFour) == 0
                && b.class_count(opp, Class::OpenFour) > 0
        });
        for b in boards {
            let me = b.side_to_move();
            let opp = me.opponent();
            let moves = search_moves(&b);
            // Exactly: our fours and the points where the opponent would make a four.
            let mut expected: Vec<Point> = b
                .points()
                .filter(|&p| {
                    b.is_legal(p) && (stone_makes_four(&b, p, me) || stone_makes_four(&b, p, opp))
                })
                .collect();
            expected.sort_by_key(|p| (p.y(), p.x()));
            if rule == Rule::Freestyle {
                assert_eq!(moves, expected, "{rule:?} {}", b.move_string());
            }
            // Whatever the rule: every real defence is searched (a legal point after which
            // the opponent has no open-four or double-four point, and no four to play).
            for p in b.points().filter(|&p| b.is_legal(p)) {
                let mut c = b.clone();
                c.play(p);
                let defends = c.class_count(opp, Class::OpenFour) == 0 && !c.has_five_point(opp);
                if defends {
                    assert!(
                        moves.contains(&p),
                        "{rule:?} {}: defence {} not searched",
                        b.move_string(),
                        b.format_point(p)
                    );
                }
            }
        }
    }
}

#[test]
fn facing_a_four_three_only_fours_and_defences_are_searched() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let boards = positions(rule, 40, 31, |b| {
            let me = b.side_to_move();
            let opp = me.opponent();
            !b.has_five_point(me)
                && !b.has_five_point(opp)
                && b.class_count(me, Class::OpenFour) == 0
                && b.class_count(opp, Class::OpenFour) == 0
                && b.class_count(opp, Class::FourThree) > 0
        });
        for b in boards {
            let me = b.side_to_move();
            let opp = me.opponent();
            let moves = search_moves(&b);
            assert!(moves.len() < b.points().filter(|&p| b.is_legal(p)).count());
            for p in b.points().filter(|&p| b.is_legal(p)) {
                let mut c = b.clone();
                c.play(p);
                // A real defence leaves the opponent no four-three point; a four of ours
                // forces a block first. Both must be searched.
                let defends = c.class_count(opp, Class::FourThree) == 0;
                if defends || stone_makes_four(&b, p, me) {
                    assert!(
                        moves.contains(&p),
                        "{rule:?} {}: defence {} not searched",
                        b.move_string(),
                        b.format_point(p)
                    );
                }
            }
        }
    }
}

#[test]
fn threat_search_never_starves_the_main_search() {
    // Crowded positions of both rules, including renju games deep into the middle game:
    // with a time limit the answer is a threat win or comes from a main search that
    // completed at least one iteration.
    for rule in [Rule::Freestyle, Rule::Renju] {
        let boards = positions(rule, 6, 37, |b| b.stone_count() >= 30);
        for b in boards {
            let stop = AtomicBool::new(false);
            let r = Engine::new(8).think(
                &b,
                // A second: the threat searches end by half of it, and the main search's
                // first iteration takes milliseconds, so no machine load starves it.
                &Limits::time(Duration::from_secs(1)),
                &stop,
                |_| {},
            );
            assert!(r.best_move.is_some(), "{}", b.move_string());
            if r.source == Source::Search {
                assert!(r.depth >= 1, "{rule:?} {}: depth 0", b.move_string());
            }
        }
    }
}
