//! Property tests on random playouts from the start and the reference positions: play/undo
//! restores position and key, the incremental key equals the key from scratch, FEN round
//! trips, notation round trips, and the fast generator agrees with the rule checker.

mod common;

use proptest::prelude::*;
use xiangqi::{Position, Square, check_move};

fn start_fens() -> Vec<String> {
    common::perft_cases().into_iter().map(|c| c.fen).collect()
}

/// Plays up to `choices.len()` random legal moves, calling `visit` on every position reached
/// (including the first); returns the moves played.
fn playout(
    pos: &mut Position,
    choices: &[u16],
    mut visit: impl FnMut(&mut Position),
) -> Vec<xiangqi::Move> {
    let mut played = Vec::new();
    visit(pos);
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(c) % moves.len()];
        pos.play(mv);
        played.push(mv);
        visit(pos);
    }
    played
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn play_undo_restores_and_keys_agree(start in 0usize..13, choices in proptest::collection::vec(any::<u16>(), 0..150)) {
        let fen = &start_fens()[start];
        let mut pos = Position::from_fen(fen).unwrap();
        let key0 = pos.key_from_scratch();
        let played = playout(&mut pos, &choices, |p| {
            assert_eq!(game_core::Position::key(p), p.key_from_scratch(), "incremental key");
            // Every legal move played and taken back restores the position exactly.
            let (fen, key) = (p.to_fen(), game_core::Position::key(p));
            let psq = p.material_psq();
            for mv in p.legal_moves() {
                p.play(mv);
                assert_eq!(game_core::Position::key(p), p.key_from_scratch());
                p.undo(mv);
                assert_eq!(p.to_fen(), fen);
                assert_eq!(game_core::Position::key(p), key);
                assert_eq!(p.material_psq(), psq);
            }
        });
        for mv in played.iter().rev() {
            pos.undo(*mv);
        }
        prop_assert_eq!(pos.to_fen(), fen.clone());
        prop_assert_eq!(game_core::Position::key(&pos), key0);
    }

    #[test]
    fn fen_round_trip(start in 0usize..13, choices in proptest::collection::vec(any::<u16>(), 0..200)) {
        let mut pos = Position::from_fen(&start_fens()[start]).unwrap();
        playout(&mut pos, &choices, |p| {
            let fen = p.to_fen();
            let q = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(q.to_fen(), fen);
            assert_eq!(&q, p);
            assert_eq!(game_core::Position::key(&q), game_core::Position::key(p));
            assert_eq!(q.is_check(), p.is_check());
        });
    }

    #[test]
    fn notation_round_trips(start in 0usize..13, choices in proptest::collection::vec(any::<u16>(), 0..80)) {
        let mut pos = Position::from_fen(&start_fens()[start]).unwrap();
        playout(&mut pos, &choices, |p| {
            for mv in p.legal_moves() {
                let iccs = mv.to_string();
                assert_eq!(p.parse_any(&iccs).unwrap(), mv, "{iccs}");
                assert_eq!(p.parse_any(&Position::format_iccs_dashed(mv)).unwrap(), mv);
                let wxf = p.format_wxf(mv);
                assert_eq!(p.parse_any(&wxf).map_err(|e| e.to_string()), Ok(mv), "{} {wxf}", p.to_fen());
                let zh = p.format_chinese(mv);
                assert_eq!(p.parse_any(&zh).map_err(|e| e.to_string()), Ok(mv), "{} {zh}", p.to_fen());
            }
        });
    }

    #[test]
    fn generator_agrees_with_rule_checker(start in 0usize..13, choices in proptest::collection::vec(any::<u16>(), 0..60)) {
        let mut pos = Position::from_fen(&start_fens()[start]).unwrap();
        playout(&mut pos, &choices, |p| {
            let mut fast: Vec<_> = p.legal_moves();
            fast.sort();
            let mut slow = Vec::new();
            for from in Square::all() {
                if p.piece_on(from).is_none_or(|pc| pc.side != p.side()) {
                    continue;
                }
                for to in Square::all() {
                    if check_move(p, from, to).is_ok() {
                        slow.push(xiangqi::Move::new(from, to));
                    }
                }
            }
            slow.sort();
            assert_eq!(fast, slow, "{}", p.to_fen());
            let mut caps = Vec::new();
            p.legal_captures_into(&mut caps);
            let expected: Vec<_> = fast.iter().copied().filter(|m| p.piece_on(m.to()).is_some()).collect();
            caps.sort();
            assert_eq!(caps, expected);
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Bad input never panics: any text gives a position or a typed error.
    #[test]
    fn fen_reader_never_panics(
        any_text in ".{0,120}",
        fenish in "[rnbakcpheRNBAKCPHEX0-9/]{0,95}( [wbrx-]{1,2}( [-a-z]{1,2}( [-0-9]{1,3}( [0-9]{1,7}( [0-9]{1,12}( x)?)?)?)?)?)?",
    ) {
        for text in [&any_text, &fenish] {
            match Position::from_fen(text) {
                Ok(mut p) => {
                    let again = Position::from_fen(&p.to_fen()).unwrap();
                    prop_assert_eq!(again.to_fen(), p.to_fen());
                    let _ = p.perft_full(1);
                    let _ = p.game_end();
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
            let _ = Position::from_fen_lenient(text);
        }
    }

    /// Any move text gives a legal move or a typed error, in the start position and a middle game.
    #[test]
    fn move_parsers_never_panic(
        any_text in ".{0,10}",
        ascii in "[A-Ka-k0-9+.=\\-]{1,6}",
        chinese in "[车車马馬炮砲包兵卒帅帥将將仕士相象前后後中进進退平一二三四五六七八九1-9０-９]{1,6}",
    ) {
        let positions = [
            Position::startpos(),
            Position::from_fen("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1").unwrap(),
            Position::from_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1").unwrap(),
            Position::from_fen("5k3/9/4c4/9/4c4/9/R8/9/9/R2K5 b - - 0 1").unwrap(),
        ];
        for p in &positions {
            for text in [&any_text, &ascii, &chinese] {
                match p.parse_any(text) {
                    Ok(mv) => prop_assert!(p.legal_moves().contains(&mv)),
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
                let _ = p.parse_wxf(text);
                let _ = p.parse_chinese(text);
                let _ = p.parse_iccs(text);
            }
        }
    }
}
