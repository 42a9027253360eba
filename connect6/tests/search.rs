//! Pair generation, threat-space search and the engine's decisions.

use connect6::engine::{Decision, Engine, EngineLimits};
use connect6::notation::parse_littlegolem;
use connect6::tss::ThreatSearch;
use connect6::{Connect6, Point};
use game_core::{Outcome, Position, Side};
use proptest::prelude::*;

fn pts(s: &str) -> Vec<Point> {
    parse_littlegolem(s, 19).unwrap()
}

#[test]
fn forced_replies_are_exactly_the_blocks() {
    // White has g10..j10 (two threats): Black's first stones are the points of blocking pairs.
    let pos = Connect6::from_stones(
        19,
        &pts("j12 d4 p16 c17 q3"),
        &pts("g10 h10 i10 j10 d16 p4"),
        Side::First,
    )
    .unwrap();
    assert!(pos.in_check());
    let mut moves = Vec::new();
    assert_eq!(pos.generate_search_moves(&mut moves), None);
    let mut names: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    names.sort();
    assert_eq!(names, ["e10", "f10", "k10", "l10"]);
    // After e10 only k10 completes the block.
    let mut after = pos.clone();
    after.play(after.parse_move("e10").unwrap());
    after.generate_search_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|&m| after.format_move(m)).collect();
    assert_eq!(names, ["k10"]);
    assert!(after.is_tactical(after.parse_move("k10").unwrap()));
}

#[test]
fn winning_stone_comes_alone() {
    let pos = Connect6::from_stones(
        19,
        &pts("g10 h10 i10 j10 p16"),
        &pts("g11 j11 l8 c3 d17 p2"),
        Side::First,
    )
    .unwrap();
    let mut moves = Vec::new();
    pos.generate_search_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert!(pos.can_win_now());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn search_moves_never_empty_and_legal(seed in proptest::collection::vec(0usize..361, 0..80)) {
        let mut pos = Connect6::standard();
        let mut all = Vec::new();
        let mut some = Vec::new();
        for r in seed {
            let outcome = pos.generate_moves(&mut all);
            prop_assert_eq!(outcome, pos.generate_search_moves(&mut some));
            if outcome.is_some() {
                prop_assert!(some.is_empty());
                break;
            }
            prop_assert!(!some.is_empty());
            for m in &some {
                prop_assert!(all.contains(m));
            }
            let m = all[r % all.len()];
            pos.play(m);
        }
    }
}

#[test]
fn threat_search_two_open_threes_win_in_one_turn() {
    let mut pos = Connect6::from_stones(
        19,
        &pts("e10 f10 g10 e5 f5 g5"),
        &pts("a19 b19 s1 s2 s3 q17 r17"),
        Side::First,
    )
    .unwrap();
    let before = pos.clone();
    let mut tss = ThreatSearch::new();
    let win = tss.find_win(&mut pos, 4, 1_000_000, None).expect("a win");
    assert_eq!(pos, before);
    assert_eq!(win.turns, 1);
    for &s in &win.turn {
        pos.play(s);
    }
    assert_eq!(pos.threat_count(Side::First), 3);
    // No attack for White, which has nothing.
    let mut quiet = Connect6::from_moves(19, "j10 i9k11").unwrap();
    assert_eq!(tss.find_win(&mut quiet, 6, 100_000, None), None);
}

/// Follows the threat search's win for the side to move against the engine's defence and
/// checks the game is won within the announced number of turns.
fn threat_win_holds(moves: &str, max_turns: u32) {
    let mut pos = Connect6::from_moves(19, moves).unwrap();
    let attacker = pos.to_move();
    let mut tss = ThreatSearch::new();
    let first = tss
        .find_win(&mut pos, 12, 5_000_000, None)
        .expect("a win by threats");
    assert!(first.turns <= max_turns, "{}", first.turns);
    let mut engine = Engine::new(8);
    // Depth and nodes, not time: the same defence on any machine, however busy.
    let limits = EngineLimits {
        depth: Some(3),
        time: None,
        nodes: Some(300_000),
    };
    for turn in 1..=first.turns {
        let win = tss
            .find_win(&mut pos, 12, 5_000_000, None)
            .expect("still winning");
        assert!(win.turns <= first.turns + 1 - turn);
        for &s in &win.turn {
            pos.play(s);
        }
        if pos.game_end().is_some() {
            break;
        }
        let reply = engine.think(&pos, &limits).unwrap();
        pos.play_turn(&reply.turn).unwrap();
    }
    if pos.game_end().is_none() {
        // The last threat turn left three or more threats: the attacker completes a six now.
        assert!(pos.can_win_now());
        let a = engine.think(&pos, &limits).unwrap();
        assert_eq!(a.decision, Decision::Win);
        pos.play_turn(&a.turn).unwrap();
    }
    let mut rest = Vec::new();
    assert_eq!(pos.generate_moves(&mut rest), Some(Outcome::Win(attacker)));
}

/// Positions from self-play: Black wins by continuous threats in 5 turns, White in 7.
#[test]
fn threat_search_wins_hold_against_the_engine() {
    threat_win_holds("j10 i8h9 i11k11 k9h8", 5);
    threat_win_holds("j10 h8i7 j6l8 k9i9 l10i10", 7);
}

/// A win whose first turn must answer a threat: White's last turn (j10l8, from a game
/// against Cloudict that qi lost as White) made one threat, and Black blocks it with one
/// stone while the two stones together make two threats. The threat search used to
/// stop at the defender's threat; it now finds the blocking turn, and the win holds against
/// the engine's defence.
#[test]
fn threat_search_wins_with_a_turn_that_blocks() {
    let moves = "i10 l12i8 j9j11 k8j8 g8h9 f7k12 g9i9 f9k9 g10g11 g7g13 i11h11 f11k11 k10h10 \
                 j10l8";
    let mut pos = Connect6::from_moves(19, moves).unwrap();
    assert_eq!(pos.to_move(), Side::First);
    assert_eq!(pos.threat_count(Side::Second), 1);
    let mut tss = ThreatSearch::new();
    let win = tss
        .find_win(&mut pos, 12, 1_000_000, None)
        .expect("a win that starts with a block");
    assert_eq!(win.turns, 2);
    for &s in &win.turn {
        pos.play(s);
    }
    assert_eq!(pos.threat_count(Side::Second), 0, "the turn blocks");
    assert_eq!(pos.threat_count(Side::First), 2, "and makes two threats");
    threat_win_holds(moves, 2);
}

/// The engine plays whole games against itself on small and large boards: every turn legal,
/// every game ends (a six or a full board).
#[test]
fn engine_self_play_on_several_sizes() {
    for size in [7, 8, 11, 25] {
        let mut pos = Connect6::new(size).unwrap();
        let mut engine = Engine::new(4);
        let limits = EngineLimits {
            depth: Some(2),
            time: None,
            nodes: Some(3_000),
        };
        let mut turns = 0;
        while pos.game_end().is_none() {
            let a = engine.think(&pos, &limits).expect("game not over");
            assert_eq!(a.turn.len(), pos.stones_this_turn());
            pos.play_turn(&a.turn).unwrap();
            turns += 1;
            assert!(turns <= size * size);
        }
        assert!(engine.think(&pos, &limits).is_none());
    }
}

#[test]
fn engine_mid_turn_places_one_stone() {
    let mut pos = Connect6::from_moves(19, "j10 j9l11").unwrap();
    pos.play_point(Point::new(10, 10)).unwrap();
    assert_eq!(pos.stones_left(), 1);
    let mut engine = Engine::new(1);
    let a = engine
        .think(
            &pos,
            &EngineLimits {
                depth: Some(2),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(a.turn.len(), 1);
    pos.play_turn(&a.turn).unwrap();
    assert_eq!((pos.to_move(), pos.stones_left()), (Side::Second, 2));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Whenever the side to move can make six (with one stone or two, in the middle or at an
    /// edge, on small and standard boards), the engine's turn is legal and wins: its second
    /// stone never lands on the first (the `SamePoint` crash of a turn whose first stone wins).
    #[test]
    fn winning_turns_are_legal_and_win(
        size in proptest::sample::select(vec![7usize, 9, 19]),
        picks in proptest::collection::vec(0usize..10_000, 200),
    ) {
        let mut pos = Connect6::new(size).unwrap();
        let mut engine = Engine::new(1);
        let limits = EngineLimits { depth: Some(1), time: None, nodes: Some(2_000) };
        let mut all = Vec::new();
        for r in picks {
            if pos.game_end().is_some() {
                break;
            }
            if pos.can_win_now() && pos.stones_left() == 2 {
                let mover = pos.to_move();
                let a = engine.think(&pos, &limits).expect("the game is not over");
                let mut after = pos.clone();
                prop_assert!(after.play_turn(&a.turn).is_ok(), "{:?} in {}", a.turn, pos);
                prop_assert_eq!(after.game_end().map(|e| e.0), Some(Outcome::Win(mover)));
            }
            // Random stones, mostly next to earlier ones so that lines form.
            pos.generate_moves(&mut all);
            let near: Vec<_> = all
                .iter()
                .copied()
                .filter(|&s| {
                    let p = s.point(size);
                    (-1i32..=1).any(|dx| (-1i32..=1).any(|dy| {
                        let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
                        (0..size as i32).contains(&x)
                            && (0..size as i32).contains(&y)
                            && pos.cell(Point::new(x as u8, y as u8)) != Some(connect6::Cell::Empty)
                    }))
                })
                .collect();
            let pool = if near.is_empty() || r % 7 == 0 { &all } else { &near };
            let m = pool[r % pool.len()];
            pos.play(m);
        }
    }
}

/// The ConnectMore game of the report: Black to move has five in a line with one point open.
#[test]
fn a_turn_whose_first_stone_wins_is_legal() {
    let script = "time 2000\nblack JJ\nwhite LILH\nblack LLJL\nwhite JKKK\nblack ILKM\n\
        white KLIK\nblack HKJM\nwhite LMIJ\nblack HIMN\nwhite LGLF\nblack LELK\nwhite KNKH\n\
        black IHGJ\nwhite KFFI\nblack HJHL\nwhite HGHM\nblack FKEL\nwhite JGGL\nnext\n";
    let mut out = Vec::new();
    connect6::protocol::connectmore::run(script.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("move "))
        .expect("a move");
    let stones = &line[5..];
    assert_eq!(stones.len(), 4, "{text}");
    assert_ne!(&stones[..2], &stones[2..], "{text}");
}

/// Points within `r` of a stone (the region a defending stone can matter in here).
fn empties_near(pos: &Connect6, r: i32) -> Vec<connect6::Stone> {
    let mut all = Vec::new();
    pos.generate_moves(&mut all);
    all.retain(|s| {
        let p = s.point(19);
        (-r..=r).any(|dx| {
            (-r..=r).any(|dy| {
                let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
                (0..19).contains(&x)
                    && (0..19).contains(&y)
                    && pos.stone_at(Point::new(x as u8, y as u8)).is_some()
            })
        })
    });
    all
}

/// From a game Cloudict won against qi: Black's win starts with a turn making one threat
/// (l13 j13 makes four on the diagonal, White's block leaves it one free stone), which
/// the double-threat search alone does not see. After the single-threat turn found, every
/// block and every free stone near the stones still loses to continuous double threats.
#[test]
fn single_threat_turn_starts_a_win_the_double_threat_search_misses() {
    let mut pos = Connect6::from_moves(19, "j11 l9i12 i10k12 h9g10").unwrap();
    let mut tss = ThreatSearch::new();
    assert_eq!(tss.find_win(&mut pos, 10, 2_000_000, None), None);
    let before = pos.clone();
    let win = tss
        .find_win_or_single(&mut pos, 10, 2_000_000, None)
        .expect("a win starting with a single threat");
    assert_eq!(pos, before);
    for &s in &win.turn {
        pos.play(s);
    }
    assert_eq!(pos.threat_count(Side::First), 1);
    let mut blocks = Vec::new();
    pos.generate_search_moves(&mut blocks);
    assert!(!blocks.is_empty());
    for &b in &blocks {
        pos.play(b);
        if pos.in_check() {
            // The block did not stop the threat: Black sixes at once.
            pos.undo(b);
            continue;
        }
        for x in empties_near(&pos, 2) {
            pos.play(x);
            let again = tss.find_win(&mut pos, 10, 2_000_000, None);
            assert!(
                again.is_some(),
                "block {} free {} refutes",
                pos.format_move(b),
                pos.format_move(x)
            );
            pos.undo(x);
        }
        pos.undo(b);
    }
}

/// The turn before that loss: qi (White) played h9 g10 and Black's single threat l13 j13
/// won. With the defensive threat search on, the engine sees the single-threat attack and
/// plays a turn after which Black has no win by threats, single-threat start included
/// (nodes, not time, keep it deterministic).
#[test]
fn engine_stops_a_win_that_starts_with_a_single_threat() {
    let pos = Connect6::from_moves(19, "j11 l9i12 i10k12").unwrap();
    let mut engine = Engine::new(8);
    engine.set_defence(true);
    let limits = EngineLimits {
        depth: None,
        time: None,
        nodes: Some(1_600_000),
    };
    let a = engine.think(&pos, &limits).unwrap();
    let mut after = pos.clone();
    after.play_turn(&a.turn).unwrap();
    let mut tss = ThreatSearch::new();
    assert_eq!(
        tss.find_win_or_single(&mut after, 10, 2_000_000, None),
        None,
        "{:?}",
        a.turn
    );
    // The turn played in the game loses.
    let mut game = pos.clone();
    game.play_turn(&pts("h9 g10")).unwrap();
    assert!(
        tss.find_win_or_single(&mut game, 10, 2_000_000, None)
            .is_some()
    );
}

/// From a game Cloudict (Black) won against qi: after White's k7 k9 (a four on the k file,
/// one threat) Black blocks at k10, and its turn's other stone, h10, makes a four on the
/// diagonal h10-k13 open at both ends: two threats, and a win by continuous threats. The
/// one-stone threat search finds that stone; its win holds against every blocking pair of
/// White, and then against the engine's defence turn by turn.
#[test]
fn one_stone_double_threat_wins_after_a_block() {
    let mut pos = Connect6::from_moves(19, "i11 k8k11 k13j12 k7k9 k10").unwrap();
    assert_eq!(pos.stones_left(), 1);
    let before = pos.clone();
    let mut tss = ThreatSearch::new();
    let win = tss
        .find_win_with_one_stone(&mut pos, 10, 1_000_000, None)
        .expect("a win with the turn's second stone");
    assert_eq!(pos, before);
    assert_eq!(win.turn, vec![pos.parse_move("h10").unwrap()]);
    pos.play(win.turn[0]);
    assert_eq!(pos.threat_count(Side::First), 2);
    // Every blocking pair of White, and then the engine's defence.
    let mut engine = Engine::new(8);
    let limits = EngineLimits {
        depth: Some(2),
        time: None,
        nodes: Some(20_000),
    };
    let mut firsts = Vec::new();
    pos.generate_search_moves(&mut firsts);
    for &a in &firsts {
        pos.play(a);
        let mut seconds = Vec::new();
        pos.generate_search_moves(&mut seconds);
        for &b in &seconds {
            pos.play(b);
            let mut game = pos.clone();
            for _ in 0..win.turns {
                if game.game_end().is_some() {
                    break;
                }
                let attack = tss
                    .find_win(&mut game, 10, 1_000_000, None)
                    .expect("Black still wins by threats");
                for &s in &attack.turn {
                    game.play(s);
                }
                if let Some(reply) = engine.think(&game, &limits) {
                    game.play_turn(&reply.turn).unwrap();
                }
            }
            let mut rest = Vec::new();
            assert_eq!(
                game.generate_moves(&mut rest),
                Some(Outcome::Win(Side::First)),
                "{}",
                game.moves_littlegolem()
            );
            pos.undo(b);
        }
        pos.undo(a);
    }
    // Without the block the position is different: after k6 no stone makes a double threat
    // that wins.
    let mut other = Connect6::from_moves(19, "i11 k8k11 k13j12 k7k5 k6").unwrap();
    assert_eq!(
        tss.find_win_with_one_stone(&mut other, 10, 1_000_000, None),
        None
    );
}

/// The limits the verification tests search with: 1 to 3 turns deep, then 2,000 to 50,000
/// nodes.
fn verification_limits() -> impl Iterator<Item = EngineLimits> {
    let by_depth = (1..=3).map(|turns| EngineLimits {
        depth: Some(turns),
        time: None,
        nodes: None,
    });
    let by_nodes = [2_000, 5_000, 10_000, 20_000, 50_000].map(|nodes| EngineLimits {
        depth: None,
        time: None,
        nodes: Some(nodes),
    });
    by_depth.chain(by_nodes)
}

/// The turn before that loss: with the verification of its turn on (the default), the
/// engine never plays a turn whose threat the opponent blocks into a win by threats, nor one
/// after which the opponent wins by continuous threats; the game's k7 k9 is such a turn.
/// Depth and node limits keep it deterministic; with the verification and the main search's
/// check extension off the engine plays a losing turn at one of them (k7 k9 itself at one
/// turn deep). The main search with the check extension (the default) avoids the loss at
/// these limits without the verification, so the verification is tested with it on and off.
#[test]
fn engine_verifies_its_turn_against_the_opponents_threats() {
    let pos = Connect6::from_moves(19, "i11 k8k11 k13j12").unwrap();
    let loses = |turn: &[Point]| {
        let mut after = pos.clone();
        after.play_turn(turn).unwrap();
        let mut tss = ThreatSearch::new();
        if after.threat_count(Side::Second) == 0 {
            return tss.find_win(&mut after, 10, 1_000_000, None).is_some();
        }
        let mut blocks = Vec::new();
        after.generate_search_moves(&mut blocks);
        blocks.into_iter().any(|b| {
            let mut blocked = after.clone();
            blocked.play(b);
            !blocked.in_check()
                && tss
                    .find_win_with_one_stone(&mut blocked, 10, 1_000_000, None)
                    .is_some()
        })
    };
    assert!(loses(&pts("k7 k9")));
    let mut unverified_loss = false;
    for limits in verification_limits() {
        for extension in [true, false] {
            let mut engine = Engine::new(8);
            engine.set_check_extension(extension);
            let turn = engine.think(&pos, &limits).unwrap().turn;
            assert!(!loses(&turn), "{limits:?}, extension {extension}: {turn:?}");
        }
        let mut extended = Engine::new(8);
        extended.set_verify(false);
        let turn = extended.think(&pos, &limits).unwrap().turn;
        assert!(!loses(&turn), "{limits:?}, search alone: {turn:?}");
        let mut plain = Engine::new(8);
        plain.set_verify(false);
        plain.set_check_extension(false);
        unverified_loss |= loses(&plain.think(&pos, &limits).unwrap().turn);
    }
    assert!(unverified_loss);
}

/// The last line the engine reports is its answer: that line's principal variation is the
/// answer's, and it starts with the turn played, also when the second stone had a search of
/// its own (the main line's second stone was no candidate) and when the verification's
/// threat search replaced the searched turn (then the answer says why). Self-play turns on
/// 19x19 at several node limits, and the position where the verification saves a turn.
#[test]
fn the_last_reported_line_starts_with_the_turn_played() {
    let check = |engine: &mut Engine, pos: &Connect6, limits: &EngineLimits| {
        let mut last = None;
        let a = engine
            .think_with(pos, limits, |r| last = Some(r.clone()))
            .expect("the game is not over");
        assert!(a.pv.starts_with(&a.turn), "{a:?}");
        if let Some(last) = last {
            assert_eq!(last.pv, a.pv, "{limits:?}");
            assert_eq!(last.turn, a.turn, "{limits:?}");
        }
        assert_eq!(
            a.decision.reason().is_some(),
            a.decision == Decision::Defended
        );
        a
    };
    for nodes in [2_000, 6_000, 20_000] {
        let limits = EngineLimits {
            depth: None,
            time: None,
            nodes: Some(nodes),
        };
        let mut pos = Connect6::new(19).unwrap();
        let mut engine = Engine::new(8);
        for _ in 0..10 {
            if pos.game_end().is_some() {
                break;
            }
            let a = check(&mut engine, &pos, &limits);
            pos.play_turn(&a.turn).unwrap();
        }
    }
    let pos = Connect6::from_moves(19, "i11 k8k11 k13j12").unwrap();
    let mut defended = false;
    for limits in verification_limits() {
        let mut engine = Engine::new(8);
        engine.set_check_extension(false);
        defended |= check(&mut engine, &pos, &limits).decision == Decision::Defended;
    }
    assert!(defended, "the verification replaced no turn");
}
