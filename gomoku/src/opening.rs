//! Opening rules for gomoku and renju ([`game_frame::opening_rule`]): the steps before normal
//! play, for people and the engine in either role.
//!
//! - **Centre** (renju without an opening rule): Black's first stone is on the centre point
//!   (RIF rules of renju, article 2: "the first move is made on the central point").
//! - **Swap2** (Gomocup since 2016, the gomoku world championships): the first player places
//!   three stones (two black, one white); the second player then plays White (placing the
//!   4th stone), takes Black (swap), or places two more stones (the 4th white, the 5th black)
//!   and lets the first player choose the colour.
//! - **RIF opening rule** (renju, RIF 1996-2008): the tentative Black places the first three
//!   stones (the 1st on the centre, the 2nd within the central 3x3 square, the 3rd within the
//!   central 5x5: one of the 26 openings); the tentative White may swap; White plays the 4th
//!   stone anywhere; Black offers two 5th moves, not symmetric to each other; White picks
//!   one and plays the 6th.
//! - **Taraguchi-N** (renju; Taraguchi-10 is the rule of the European championships since
//!   2010 and of the correspondence world championship, renju.net): Black's 1st stone on the
//!   centre, White's 2nd within the central 3x3 square, Black's 3rd within 5x5, White's 4th
//!   within 7x7, the other player (the one who did not place the stone) may swap after each;
//!   then either (choice 1) Black places the 5th within 9x9 and the other may swap, or
//!   (choice 2) Black offers N 5th moves anywhere, no two symmetric, and White picks one and
//!   plays the 6th.
//!
//! Symmetric offers: two 5th moves are symmetric when a rotation or reflection of the board
//! that maps the stones already placed onto stones of the same colour maps one onto the other
//! (renju.net, "symmetrical moves are not allowed").

use std::sync::atomic::AtomicBool;

use game_core::{Score, Side};
use game_frame::Budget;
use game_frame::opening_rule::{Answer, Ask, Choice, OpeningRule, Role};

use crate::engine::Engine;
use crate::{Board, Point, Rule};
use game_core::search::Limits;

/// The opening rules gomoku offers under `rule`: (name, description).
#[must_use]
pub fn rules_for(rule: Rule) -> Vec<(&'static str, &'static str)> {
    match rule {
        Rule::Renju => vec![
            (
                "centre",
                "no opening rule: Black's first stone on the centre point",
            ),
            (
                "taraguchi-10",
                "Taraguchi-10: stones 1-4 in growing central squares, a swap after each; \
                 then a 5th within 9x9 (and a swap) or ten 5th moves offered",
            ),
            (
                "rif",
                "RIF rule: the first player places three stones (an opening), the other may \
                 swap; White plays the 4th; Black offers two 5th moves and White picks",
            ),
        ],
        Rule::Freestyle | Rule::Standard => vec![
            ("free", "no opening rule"),
            (
                "swap2",
                "swap2: the first player places three stones; the other plays White, takes \
                 Black, or places two more and lets the first player choose",
            ),
        ],
    }
}

/// The opening rule `name` for a game under `rule` (`centre`, `taraguchi-10`, `taraguchi`
/// (the original rule, five 5th moves) or `rif` for renju; `swap2` otherwise), or `None`
/// (`free` is no rule).
#[must_use]
pub fn new(rule: Rule, name: &str) -> Option<GomokuOpening> {
    let name = name.trim().to_ascii_lowercase();
    let steps = match (rule, name.as_str()) {
        (Rule::Renju, "centre" | "center") => vec![Step::place(Who::Role(Role::First), Some(1))],
        (Rule::Renju, "rif") => vec![
            Step::place(Who::Role(Role::First), Some(1)),
            Step::place(Who::Role(Role::First), Some(3)),
            Step::place(Who::Role(Role::First), Some(5)),
            Step::Swap,
            Step::Place {
                who: Who::Mover,
                square: None,
                balanced: false,
            },
            Step::Offer(2),
            Step::Pick,
        ],
        (Rule::Renju, "taraguchi-10" | "taraguchi") => {
            // Taraguchi-10 offers ten 5th moves, the original Taraguchi rule five.
            let count = if name == "taraguchi" { 5 } else { 10 };
            let mut steps = Vec::new();
            for square in [1, 3, 5, 7] {
                steps.push(Step::place(Who::Mover, Some(square)));
                steps.push(Step::Swap);
            }
            steps.push(Step::Fifth(count));
            steps
        }
        (Rule::Freestyle | Rule::Standard, "swap2") => vec![
            Step::place(Who::Role(Role::First), None),
            Step::place(Who::Role(Role::First), None),
            Step::place(Who::Role(Role::First), None),
            Step::Swap2,
        ],
        _ => return None,
    };
    let name: &'static str = match name.as_str() {
        "centre" | "center" => "centre",
        "rif" => "rif",
        "swap2" => "swap2",
        "taraguchi" => "taraguchi",
        _ => "taraguchi-10",
    };
    Some(GomokuOpening {
        name,
        steps,
        next: 0,
        swapped: false,
        offered: Vec::new(),
    })
}

/// Who takes a step.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Who {
    /// This player, whatever the colours.
    Role(Role),
    /// The holder of the side to move.
    Mover,
    /// The holder of the side not to move.
    NotMover,
}

/// One step of an opening rule.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// A stone for the side to move, within the central square of this side (odd; `None`:
    /// anywhere); `balanced`: a choice of colours follows, so the engine aims for an even
    /// position rather than its best move.
    Place {
        who: Who,
        square: Option<usize>,
        balanced: bool,
    },
    /// The holder of the side to move may swap colours.
    Swap,
    /// Swap2's choice of the holder of White after three stones.
    Swap2,
    /// Swap2's choice of colour by the holder of Black after five stones.
    Colour,
    /// Taraguchi-N: Black places the 5th within 9x9 (then White may swap), or offers N.
    Fifth(usize),
    /// The holder of the side to move offers this many moves.
    Offer(usize),
    /// The other player picks one of the offered moves.
    Pick,
}

impl Step {
    fn place(who: Who, square: Option<usize>) -> Step {
        Step::Place {
            who,
            square,
            balanced: true,
        }
    }
}

/// A gomoku or renju opening rule in play ([`new`]).
#[derive(Clone, Debug)]
pub struct GomokuOpening {
    name: &'static str,
    steps: Vec<Step>,
    next: usize,
    swapped: bool,
    offered: Vec<Point>,
}

/// The central square of `side` points (odd) on `board`, empty points only, or every empty
/// point for `None`.
fn region(board: &Board, square: Option<usize>) -> Vec<Point> {
    let size = board.size();
    let c = size / 2;
    let half = square.map_or(size, |s| s / 2);
    board
        .points()
        .filter(|p| board.is_empty(*p) && p.x().abs_diff(c) <= half && p.y().abs_diff(c) <= half)
        .collect()
}

/// The Chebyshev distance from `p` to the nearest stone on `board` (`None` on an empty
/// board).
fn nearest_stone(board: &Board, p: Point) -> Option<usize> {
    board
        .points()
        .filter(|q| !board.is_empty(*q))
        .map(|q| q.x().abs_diff(p.x()).max(q.y().abs_diff(p.y())))
        .min()
}

/// The eight rotations and reflections of a square board of `size` (index 0 the identity).
fn transform(size: usize, t: usize, p: Point) -> Point {
    let (x, y) = (p.x(), p.y());
    let m = size - 1;
    let (x, y) = match t {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        3 => (y, m - x),
        4 => (m - x, y),
        5 => (x, m - y),
        6 => (y, x),
        _ => (m - y, m - x),
    };
    Point::new(x, y)
}

/// The transforms that map the stones of `board` onto stones of the same colour.
fn symmetries(board: &Board) -> Vec<usize> {
    let size = board.size();
    let stones: Vec<(Point, Side)> = board
        .points()
        .filter_map(|p| board.stone(p).map(|s| (p, s)))
        .collect();
    (0..8)
        .filter(|&t| {
            stones
                .iter()
                .all(|&(p, s)| board.stone(transform(size, t, p)) == Some(s))
        })
        .collect()
}

/// Whether `a` and `b` are the same move up to a symmetry of the position on `board`.
#[must_use]
pub fn symmetric(board: &Board, a: Point, b: Point) -> bool {
    symmetries(board)
        .into_iter()
        .any(|t| transform(board.size(), t, a) == b)
}

impl GomokuOpening {
    fn step(&self) -> Option<&Step> {
        self.steps.get(self.next)
    }

    fn who(&self, who: Who, board: &Board) -> Role {
        let mover = board.side_to_move();
        match who {
            Who::Role(r) => r,
            Who::Mover => Role::holding(mover, self.swapped),
            Who::NotMover => Role::holding(mover.opponent(), self.swapped),
        }
    }

    /// The choices of a choosing step.
    fn choices(step: &Step) -> Vec<Choice> {
        let c = |key, text: &str| Choice {
            key,
            text: text.to_string(),
        };
        match step {
            Step::Swap => vec![
                c("stay", "keep your colour"),
                c("swap", "take the other colour"),
            ],
            Step::Swap2 => vec![
                c("white", "play White: place the 4th stone now"),
                c(
                    "black",
                    "take Black: the other player plays the 4th stone as White",
                ),
                c(
                    "two",
                    "place the 4th and 5th stones and let the other player choose the colour",
                ),
            ],
            Step::Colour => vec![
                c("black", "play Black (White plays the 6th stone)"),
                c("white", "play White: place the 6th stone now"),
            ],
            Step::Fifth(n) => vec![
                c("one", "place the 5th stone within the central 9x9 square"),
                c(
                    "offer",
                    &format!("offer {n} 5th moves anywhere, no two symmetric"),
                ),
            ],
            _ => Vec::new(),
        }
    }

    /// Applies a choice (already checked against the step's choices).
    fn choose(&mut self, key: &str) {
        let step = self.steps[self.next].clone();
        self.next += 1;
        let at = self.next;
        match (step, key) {
            // A swap; swap2's White holder taking Black; the colour choice of Black's holder
            // taking White: the players exchange colours.
            (Step::Swap, "swap") | (Step::Swap2, "black") | (Step::Colour, "white") => {
                self.swapped = !self.swapped;
            }
            (Step::Swap2, "two") => {
                self.steps.splice(
                    at..at,
                    [
                        Step::place(Who::Role(Role::Second), None),
                        Step::place(Who::Role(Role::Second), None),
                        Step::Colour,
                    ],
                );
            }
            (Step::Fifth(_), "one") => {
                self.steps
                    .splice(at..at, [Step::place(Who::Mover, Some(9)), Step::Swap]);
            }
            (Step::Fifth(n), "offer") => {
                self.steps.splice(at..at, [Step::Offer(n), Step::Pick]);
            }
            // "stay", swap2's "white", the colour choice "black": colours as they are.
            _ => {}
        }
    }

    /// Candidate points for the engine: the allowed ones, or the empty points within three
    /// of a stone (the central 5x5 square on an empty board); Black's forbidden points left
    /// out.
    fn candidates(board: &Board, square: Option<usize>) -> Vec<Point> {
        let near: Vec<Point> = if square.is_some() || board.stone_count() == 0 {
            region(board, square.or(Some(5)))
        } else {
            let stones: Vec<Point> = board.points().filter(|p| !board.is_empty(*p)).collect();
            board
                .points()
                .filter(|p| {
                    board.is_empty(*p)
                        && stones
                            .iter()
                            .any(|s| s.x().abs_diff(p.x()) <= 3 && s.y().abs_diff(p.y()) <= 3)
                })
                .collect()
        };
        near.into_iter().filter(|&p| board.is_legal(p)).collect()
    }

    /// The score of the side to move of `board` after a short search.
    fn evaluate(
        engine: &mut Engine,
        board: &Board,
        limits: &Limits<Point>,
        stop: &AtomicBool,
    ) -> Score {
        if let Some((outcome, _)) = board.game_end() {
            return match outcome {
                game_core::Outcome::Win(s) if s == board.side_to_move() => game_core::score::MATE,
                game_core::Outcome::Win(_) => -game_core::score::MATE,
                game_core::Outcome::Draw => 0,
            };
        }
        engine.think(board, limits, stop, |_| {}).score
    }

    /// Each candidate's score for the player who plays it, best first.
    fn scored(
        engine: &mut Engine,
        board: &Board,
        points: &[Point],
        limits: &Limits<Point>,
        stop: &AtomicBool,
    ) -> Vec<(Point, Score)> {
        let mut out: Vec<(Point, Score)> = points
            .iter()
            .map(|&p| {
                let mut b = board.clone();
                b.play(p);
                (p, -Self::evaluate(engine, &b, limits, stop))
            })
            .collect();
        out.sort_by_key(|&(p, s)| (std::cmp::Reverse(s), p));
        out
    }
}

/// The limits of each short search the engine makes in the opening: a tenth of the
/// budget's nodes, or 50 nodes a millisecond of its time per move, at most 20,000 nodes and
/// 8 plies (the budget's depth when smaller). An opening step makes up to a few dozen.
fn eval_limits(budget: &Budget) -> Limits<Point> {
    let nodes = match (budget.nodes, budget.time) {
        (Some(n), _) => n / 10,
        (None, Some(t)) => t.as_millis() as u64 * 50,
        (None, None) => 20_000,
    };
    Limits {
        nodes: Some(nodes.clamp(500, 20_000)),
        depth: Some(budget.depth.unwrap_or(8).clamp(1, 8)),
        ..Limits::default()
    }
}

impl OpeningRule<Board> for GomokuOpening {
    fn name(&self) -> &'static str {
        self.name
    }

    fn ask(&self, board: &Board) -> Option<Ask<Point>> {
        if board.game_end().is_some() {
            return None;
        }
        let step = self.step()?;
        Some(match step {
            Step::Place { who, square, .. } => Ask::Place {
                role: self.who(*who, board),
                allowed: square.map_or_else(Vec::new, |s| region(board, Some(s))),
            },
            Step::Swap | Step::Swap2 | Step::Fifth(_) => Ask::Choose {
                role: self.who(Who::Mover, board),
                options: Self::choices(step),
            },
            Step::Colour => Ask::Choose {
                role: self.who(Who::NotMover, board),
                options: Self::choices(step),
            },
            Step::Offer(n) => Ask::Offer {
                role: self.who(Who::Mover, board),
                count: *n,
            },
            Step::Pick => Ask::Pick {
                role: self.who(Who::NotMover, board),
                offered: self.offered.clone(),
            },
        })
    }

    fn answer(&mut self, board: &Board, answer: Answer<Point>) -> Result<Vec<Point>, String> {
        let ask = self
            .ask(board)
            .ok_or_else(|| "the opening is over".to_string())?;
        match (ask, answer) {
            (Ask::Place { allowed, .. }, Answer::Place(p)) => {
                if !board.is_empty(p) {
                    return Err(format!("{} is occupied", board.format_point(p)));
                }
                if !allowed.is_empty() && !allowed.contains(&p) {
                    let Some(Step::Place {
                        square: Some(s), ..
                    }) = self.step()
                    else {
                        return Err("not allowed here".into());
                    };
                    return Err(if *s == 1 {
                        format!(
                            "this stone goes on the centre point, {}",
                            board.format_point(allowed[0])
                        )
                    } else {
                        format!("this stone goes within the central {s}x{s} square")
                    });
                }
                self.next += 1;
                Ok(vec![p])
            }
            (Ask::Choose { options, .. }, Answer::Choose(key)) => {
                if !options.iter().any(|c| c.key == key) {
                    return Err(format!(
                        "'{key}' is not a choice here: expected {}",
                        options
                            .iter()
                            .map(|c| c.key)
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ));
                }
                self.choose(key);
                Ok(Vec::new())
            }
            (Ask::Offer { count, .. }, Answer::Offer(points)) => {
                if points.len() != count {
                    let n = points.len();
                    let plural = if n == 1 { "move" } else { "moves" };
                    return Err(format!("{n} {plural} offered: expected {count}"));
                }
                for (i, &p) in points.iter().enumerate() {
                    let name = board.format_point(p);
                    if !board.is_empty(p) {
                        return Err(format!("{name} is occupied"));
                    }
                    if !board.is_legal(p) {
                        return Err(format!("{name} is forbidden for Black"));
                    }
                    if let Some(&q) = points[..i]
                        .iter()
                        .find(|&&q| q == p || symmetric(board, q, p))
                    {
                        return Err(if q == p {
                            format!("{name} is offered twice")
                        } else {
                            format!(
                                "{name} is symmetric to {} on this board: offer moves that \
                                 differ",
                                board.format_point(q)
                            )
                        });
                    }
                }
                self.offered = points;
                self.next += 1;
                Ok(Vec::new())
            }
            (Ask::Pick { offered, .. }, Answer::Pick(p)) => {
                if !offered.contains(&p) {
                    return Err(format!(
                        "{} was not offered: pick one of {}",
                        board.format_point(p),
                        offered
                            .iter()
                            .map(|&q| board.format_point(q))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ));
                }
                self.next += 1;
                Ok(vec![p])
            }
            (ask, _) => Err(format!(
                "the opening asks {}",
                match ask {
                    Ask::Place { .. } => "for a stone",
                    Ask::Choose { .. } => "for a choice",
                    Ask::Offer { .. } => "for moves to offer",
                    Ask::Pick { .. } => "to pick one of the offered moves",
                }
            )),
        }
    }

    fn engine_answer(
        &mut self,
        board: &Board,
        engine: &mut Engine,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Answer<Point> {
        let limits = eval_limits(budget);
        let Some(step) = self.step().cloned() else {
            return Answer::Choose("stay");
        };
        match step {
            Step::Place {
                square, balanced, ..
            } => {
                let mut points = Self::candidates(board, square);
                if balanced {
                    // Balancing stones stay in the opening's cluster near the centre, as
                    // players place them: a far stone can look even to a short search and be
                    // a mere throw-away, and an edge weakens both sides' play.
                    let centre = board.size() / 2;
                    let close: Vec<Point> = points
                        .iter()
                        .copied()
                        .filter(|&p| {
                            nearest_stone(board, p).is_none_or(|d| d <= 2)
                                && p.x().abs_diff(centre) <= 3
                                && p.y().abs_diff(centre) <= 3
                        })
                        .collect();
                    if !close.is_empty() {
                        points = close;
                    }
                }
                if points.len() == 1 {
                    return Answer::Place(points[0]);
                }
                let scored = Self::scored(engine, board, &points, &limits, stop);
                let pick = if balanced {
                    // A choice of colours follows: the most even position (scores within a
                    // fifth of an open three count as even), then the stone closest to the
                    // others.
                    scored.iter().min_by_key(|&&(p, s)| {
                        (s.abs() / 40, nearest_stone(board, p).unwrap_or(0), p)
                    })
                } else {
                    scored.first()
                };
                Answer::Place(pick.map_or(points[0], |&(p, _)| p))
            }
            Step::Swap | Step::Swap2 | Step::Colour => {
                // The score of the side to move; which side the chooser holds decides.
                let deeper = Limits {
                    nodes: limits.nodes.map(|n| n * 4),
                    ..limits
                };
                let score = Self::evaluate(engine, board, &deeper, stop);
                match step {
                    Step::Swap => Answer::Choose(if score < 0 { "swap" } else { "stay" }),
                    Step::Swap2 if score < -150 => Answer::Choose("black"),
                    Step::Swap2 if score > 150 => Answer::Choose("white"),
                    Step::Swap2 => Answer::Choose("two"),
                    // After five stones White is to move; Black's holder chooses.
                    _ => Answer::Choose(if score > 0 { "white" } else { "black" }),
                }
            }
            Step::Fifth(_) => Answer::Choose("offer"),
            Step::Offer(n) => {
                // The best moves for the offering side, one of each symmetric class: the
                // other player picks the worst of them for us.
                let scored =
                    Self::scored(engine, board, &Self::candidates(board, None), &limits, stop);
                let mut chosen: Vec<Point> = Vec::new();
                for (p, _) in scored {
                    if !chosen.iter().any(|&q| symmetric(board, q, p)) {
                        chosen.push(p);
                    }
                    if chosen.len() == n {
                        break;
                    }
                }
                // Too few candidates near the stones: any other moves, still not symmetric.
                for p in board.points() {
                    if chosen.len() == n {
                        break;
                    }
                    if board.is_empty(p)
                        && board.is_legal(p)
                        && !chosen.iter().any(|&q| q == p || symmetric(board, q, p))
                    {
                        chosen.push(p);
                    }
                }
                Answer::Offer(chosen)
            }
            Step::Pick => {
                let scored = Self::scored(engine, board, &self.offered, &limits, stop);
                // Scores are the offering side's: pick the move worst for it.
                let pick = scored.last().map_or(self.offered[0], |&(p, _)| p);
                Answer::Pick(pick)
            }
        }
    }

    fn prompt(&self, board: &Board) -> String {
        let colour = |side: Side| match side {
            Side::First => "Black",
            Side::Second => "White",
        };
        let mover = colour(board.side_to_move());
        let ordinal = |n: usize| match n {
            1 => "1st".to_string(),
            2 => "2nd".to_string(),
            3 => "3rd".to_string(),
            n => format!("{n}th"),
        };
        match self.step() {
            None => "play on".to_string(),
            Some(Step::Place { square, .. }) => {
                let n = ordinal(board.stone_count() + 1);
                let place = match square {
                    Some(1) => format!(
                        "on the centre point, {}",
                        board.format_point(Point::new(board.size() / 2, board.size() / 2))
                    ),
                    Some(s) => format!("within the central {s}x{s} square"),
                    None => "anywhere".to_string(),
                };
                format!("place the {n} stone ({mover}) {place}")
            }
            Some(Step::Swap) => format!(
                "you hold {mover}, to move: 'stay', or 'swap' to take {}",
                colour(board.side_to_move().opponent())
            ),
            Some(Step::Swap2) => "choose: 'white' (play White, the 4th stone now), 'black' \
                                  (take Black), or 'two' (place the 4th and 5th stones, the \
                                  other player then chooses)"
                .to_string(),
            Some(Step::Colour) => {
                "choose your colour: 'black', or 'white' (and place the 6th stone)".to_string()
            }
            Some(Step::Fifth(n)) => format!(
                "choose: 'one' (place the 5th stone within the central 9x9 square; the other \
                 player may swap) or 'offer' ({n} 5th moves, no two symmetric; the other \
                 player picks one)"
            ),
            Some(Step::Offer(n)) => format!(
                "offer {n} 5th moves for {mover} (points separated by spaces), no two symmetric \
                 on this board"
            ),
            Some(Step::Pick) => format!(
                "pick one of the offered 5th moves: {}",
                self.offered
                    .iter()
                    .map(|&p| board.format_point(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        }
    }

    fn swapped(&self) -> bool {
        self.swapped
    }
}

/// The opening rules of a gomoku [`Board`] as [`game_frame::Rules`] offers them.
pub(crate) fn boxed(board: &Board, name: &str) -> Option<Box<dyn OpeningRule<Board>>> {
    let opening = new(board.rule(), name)?;
    (board.stone_count() == 0).then(|| Box::new(opening) as Box<dyn OpeningRule<Board>>)
}
