//! Property tests: bad input never panics; random games keep the incremental state exact.

use game_core::{Position, Side};
use gomoku::protocol::gomocup;
use gomoku::{Board, Rule};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(text in "\\PC{0,12}", size in 5usize..=26) {
        let b = Board::new(size, Rule::Renju).unwrap();
        let _ = b.parse_point(&text);
        let _ = b.parse_points(&text);
        let _ = b.parse_move(&text);
        let _ = gomoku::parse_gomocup(&text, size);
        let _ = Board::from_moves(size, Rule::Freestyle, &text);
        let _ = text.parse::<Rule>();
    }

    #[test]
    fn protocol_never_panics(lines in proptest::collection::vec("(START|TURN|BOARD|DONE|INFO|TAKEBACK|YXBOARD|SWAP2BOARD|RECTSTART|PLAY|YXSHOWFORBID|[A-Z]{0,4}) ?[-0-9a-z,_ ]{0,8}", 0..12)) {
        let mut input = String::from("START 7\r\nINFO max_depth 1\r\nINFO timeout_turn 200\r\n");
        for l in &lines {
            input.push_str(l);
            input.push_str("\r\n");
        }
        let mut out = Vec::new();
        gomocup::run(input.as_bytes(), &mut out).unwrap();
    }

    #[test]
    fn random_games_keep_keys_and_undo_exact(seed in any::<u64>(), rule_i in 0usize..3, size in prop::sample::select(vec![7usize, 15, 20])) {
        let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][rule_i];
        let mut b = Board::new(size, rule).unwrap();
        let start_key = b.key();
        let mut moves = Vec::new();
        let mut played = Vec::new();
        let mut s = seed;
        loop {
            if b.generate_moves(&mut moves).is_some() {
                break;
            }
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mv = moves[(s >> 33) as usize % moves.len()];
            let before = b.key();
            b.play(mv);
            prop_assert_eq!(b.key(), b.key_from_scratch());
            prop_assert!(b.key() != before);
            played.push(mv);
            // Search moves: never empty while the game goes on, always legal.
            let mut sm = Vec::new();
            if b.generate_search_moves(&mut sm).is_none() {
                prop_assert!(!sm.is_empty());
                for &m in &sm {
                    prop_assert!(b.is_legal(m));
                }
            }
        }
        for &mv in played.iter().rev() {
            b.undo(mv);
        }
        prop_assert_eq!(b.key(), start_key);
        prop_assert_eq!(b.side_to_move(), Side::First);
        prop_assert_eq!(b.stone_count(), 0);
    }
}
