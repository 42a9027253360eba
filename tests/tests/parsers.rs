//! Parsers never panic: random and mutated strings fed to every parser of every game and to
//! the protocol loops' line handling. Each must return a value or a typed error, and a failed
//! parse leaves the position unchanged.

use connect6::Connect6;
use game_core::Position;
use gomoku::{Board, Rule};
use proptest::prelude::*;

/// Cases per property: `PROPTEST_CASES` when set (a bulk fuzz run: `PROPTEST_CASES=2000`),
/// else `default` (the suite's own count).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Text that looks like the inputs: notation characters, digits, separators, CJK numerals and
/// piece names, and arbitrary Unicode now and then.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.=+/\\-]{0,24}",
        "[rnbakcpRNBAKCPwb/0-9 \\-]{0,60}",
        "[车马相仕帅炮兵車馬象士將砲卒进退平前后中一二三四五六七八九1-9]{0,6}",
        any::<String>(),
    ]
}

/// Mutations of valid inputs: a real string with one character replaced, inserted or removed.
fn mutated(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        prop::sample::select(valid),
        any::<usize>(),
        any::<char>(),
        0..3u8,
    )
        .prop_map(|(s, at, c, op)| {
            let mut chars: Vec<char> = s.chars().collect();
            let at = if chars.is_empty() {
                0
            } else {
                at % (chars.len() + 1)
            };
            match op {
                0 if at < chars.len() => chars[at] = c,
                1 => chars.insert(at.min(chars.len()), c),
                _ if at < chars.len() => {
                    chars.remove(at);
                }
                _ => {}
            }
            chars.into_iter().collect()
        })
}

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/9/9/9/9/9/9/9/3p5/r3K4 w - - 0 1",
    "3akab2/9/4b1N2/9/9/9/9/9/9/3K1R3 w",
];
const XIANGQI_MOVES: &[&str] = &[
    "h2e2",
    "H2-E2",
    "C2.5",
    "C2=5",
    "H8+7",
    "R+.3",
    "炮二平五",
    "马8进7",
    "P+.4",
];
const STONE_MOVES: &[&str] = &[
    "h8",
    "h8g7f6",
    "j10 j9l11",
    "JJ",
    "JKKJ",
    "7,7",
    "a1",
    "o15",
];
const SGF: &[&str] = &[
    "(;FF[4]EV[connect6];B[j10];W[j9l11];B[k9l8])",
    "(;FF[4]AB[j10]AW[k11]PL[B])",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn xiangqi_fen_never_panics(s in prop_oneof![text(), mutated(FENS)]) {
        let _ = xiangqi::Setup::parse(&s).map(|setup| setup.to_position());
        let _ = xiangqi::Position::from_fen(&s);
        let _ = xiangqi::Position::from_fen_lenient(&s);
    }

    #[test]
    fn xiangqi_moves_never_panic(s in prop_oneof![text(), mutated(XIANGQI_MOVES)]) {
        let pos = xiangqi::Position::startpos();
        let before = pos.to_fen();
        let _ = pos.parse_any(&s);
        let _ = pos.parse_iccs(&s);
        let _ = pos.parse_wxf(&s);
        let _ = pos.parse_chinese(&s);
        let _ = game_core::Position::parse_move(&pos, &s);
        prop_assert_eq!(pos.to_fen(), before);
    }

    #[test]
    fn gomoku_coordinates_never_panic(s in prop_oneof![text(), mutated(STONE_MOVES)], size in 5usize..=26) {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let board = Board::from_moves(size.min(15), rule, "h8g7").unwrap_or_else(|_| Board::new(size, rule).unwrap());
            let key = board.key();
            let _ = board.parse_point(&s);
            let _ = board.parse_points(&s);
            let _ = board.parse_move(&s);
            let _ = gomoku::parse_gomocup(&s, size);
            let _ = Board::from_moves(size, rule, &s);
            prop_assert_eq!(board.key(), key);
        }
    }

    #[test]
    fn connect6_notation_and_records_never_panic(s in prop_oneof![text(), mutated(STONE_MOVES), mutated(SGF)], size in 7usize..=25) {
        let pos = Connect6::new(size).unwrap();
        let key = pos.key();
        let _ = pos.parse_turn(&s);
        let _ = pos.parse_move(&s);
        let _ = connect6::notation::parse_littlegolem(&s, size);
        let _ = connect6::notation::parse_connectmore(&s, size);
        let _ = Connect6::from_moves(size, &s);
        let _ = connect6::sgf::read_sgf(&s);
        prop_assert_eq!(pos.key(), key);
    }

    #[test]
    fn connect6_failed_turns_change_nothing(s in prop_oneof![text(), mutated(STONE_MOVES)]) {
        let mut pos = Connect6::from_moves(19, "j10 j9l11").unwrap();
        let key = pos.key();
        let stones = pos.stone_count();
        if let Ok(points) = pos.parse_turn(&s) && pos.play_turn(&points).is_ok() {
            return Ok(());
        }
        prop_assert_eq!(pos.key(), key);
        prop_assert_eq!(pos.stone_count(), stones);
    }
}

/// A protocol session: a few lines built from the protocol's own words with random or mutated
/// arguments, after a line that keeps every search short.
fn session(words: &'static [&'static str]) -> impl Strategy<Value = Vec<String>> {
    let line = prop_oneof![
        (prop::sample::select(words), "[ 0-9,a-sA-S\\-]{0,12}")
            .prop_map(|(w, a)| format!("{w}{a}")),
        text(),
    ];
    prop::collection::vec(line, 1..8)
}

const GOMOCUP: &[&str] = &[
    "START ",
    "RECTSTART ",
    "RESTART",
    "BEGIN",
    "TURN ",
    "BOARD",
    "DONE",
    "INFO ",
    "INFO rule ",
    "TAKEBACK ",
    "ABOUT",
    "SWAP2BOARD",
    "YXBOARD",
    "YXSHOWFORBID",
    "END",
    "10,10,1",
    "PLAY ",
];
const CONNECTMORE: &[&str] = &[
    "name",
    "new black",
    "new white",
    "move ",
    "black ",
    "white ",
    "next",
    "depth ",
    "time ",
    "print",
    "help",
    "vcf",
    "unvcf",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn gomocup_loop_survives_any_session(lines in session(GOMOCUP)) {
        let input = format!("START 15\nINFO timeout_turn 20\nINFO timeout_match 0\n{}\nEND\n", lines.join("\n"));
        let mut out = Vec::new();
        prop_assert!(gomoku::protocol::gomocup::run(input.as_bytes(), &mut out).is_ok());
    }

    #[test]
    fn connectmore_loop_survives_any_session(lines in session(CONNECTMORE)) {
        let lines: Vec<String> = lines.into_iter().filter(|l| !l.starts_with("time") && !l.starts_with("depth")).collect();
        let input = format!("time 20\ndepth 1\n{}\nquit\n", lines.join("\n"));
        let mut out = Vec::new();
        prop_assert!(connect6::protocol::connectmore::run(input.as_bytes(), &mut out).is_ok());
    }
}

/// A line that is not UTF-8 (Piskvork sends `INFO folder` in the Windows code page) is read
/// lossily and the session goes on. It once ended both loops with an I/O error.
#[test]
fn stone_protocols_survive_invalid_utf8() {
    let mut out = Vec::new();
    gomoku::protocol::gomocup::run(
        &b"START 15\r\nINFO folder C:\\Users\\J\xf6rg\\brains\r\nABOUT\r\nEND\r\n"[..],
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("OK") && text.contains("name=\"qi\""),
        "{text}"
    );

    let mut out = Vec::new();
    connect6::protocol::connectmore::run(&b"move J\xe9\nname\nquit\n"[..], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("error") && text.contains("name "),
        "{text}"
    );
}
