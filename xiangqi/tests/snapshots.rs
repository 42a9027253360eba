//! insta snapshots: the sorted ICCS legal-move list of every reference position (its length
//! checked against perft 1 of `perft.txt`), and the errors of a list of broken FENs.

mod common;

use xiangqi::Position;

#[test]
fn legal_moves_of_reference_positions() {
    let mut text = String::new();
    for case in common::perft_cases() {
        let p = Position::from_fen(&case.fen).unwrap();
        let mut moves: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
        moves.sort();
        let perft1 = case
            .depths
            .iter()
            .find(|(d, _)| *d == 1)
            .map(|(_, n)| *n)
            .unwrap();
        assert_eq!(moves.len() as u64, perft1, "{}", case.id);
        text.push_str(&format!(
            "{} ({}): {}\n",
            case.id,
            moves.len(),
            moves.join(" ")
        ));
    }
    for (id, fen) in common::tactics() {
        let p = Position::from_fen_lenient(&fen).unwrap();
        let mut moves: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
        moves.sort();
        text.push_str(&format!("{id} ({}): {}\n", moves.len(), moves.join(" ")));
    }
    insta::assert_snapshot!("legal_moves", text);
}

#[test]
fn broken_fens() {
    let fens = [
        "",
        "   ",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKXBNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB0R w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - e3 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -3 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra",
        "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAAKBNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1KBNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3B5/RN1AKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1K1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/PC5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/1P7/2P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/1pp1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnb1kabnr/4a4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/P8/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PPP1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RRBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "R3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1",
    ];
    let text: String = fens
        .iter()
        .map(|f| match Position::from_fen(f) {
            Ok(p) => format!("{f:?}\n  ok: {}\n", p.to_fen()),
            Err(e) => format!("{f:?}\n  {e}\n"),
        })
        .collect();
    insta::assert_snapshot!("fen_errors", text);
}

#[test]
fn fen_accepts_aliases_and_short_forms() {
    let p = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
        .unwrap();
    assert_eq!(p.to_fen(), xiangqi::START_FEN);
    let q =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
    assert_eq!(q.to_fen(), xiangqi::START_FEN);
    let b = Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12",
    )
    .unwrap();
    assert_eq!(
        b.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12"
    );
    assert_eq!(
        Position::startpos().to_string().lines().next(),
        Some("9 r n b a k a b n r")
    );
    let s = Position::startpos();
    assert_eq!(s.piece_at(4, 0).map(|p| p.fen_char()), Some('K'));
    assert_eq!(s.piece_at(7, 7).map(|p| p.fen_char()), Some('c'));
    assert_eq!(s.piece_at(4, 4), None);
    assert_eq!(s.piece_at(9, 0), None);
}
