//! ICCS, WXF and Chinese notation: the examples of `shared/docs/xiangqi.md`, tandem pieces,
//! error messages, and a snapshot of a whole game rendered in all three.

use game_core::Position as _;
use xiangqi::{MoveError, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

const START_BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

#[test]
fn doc_wxf_examples() {
    let red = Position::startpos();
    let black = pos(START_BLACK);
    for (p, iccs, wxf) in [
        (&red, "h2e2", "C2.5"),
        (&black, "h9g7", "H8+7"),
        (&red, "h0g2", "H2+3"),
        (&black, "c9e7", "E3+5"),
        (&red, "a0a2", "R9+2"),
    ] {
        let mv = p.parse_iccs(iccs).unwrap();
        assert_eq!(p.format_wxf(mv), wxf);
        assert_eq!(p.parse_wxf(wxf).unwrap(), mv);
        assert_eq!(p.parse_move(wxf).unwrap(), mv);
    }
    assert_eq!(red.parse_move("C2=5").unwrap().to_string(), "h2e2");
    assert_eq!(red.parse_move("c2.5").unwrap().to_string(), "h2e2");
    assert_eq!(
        black.parse_move("N8+7").unwrap().to_string(),
        "h9g7",
        "N accepted for H"
    );
    assert_eq!(
        black.parse_move("B3+5").unwrap().to_string(),
        "c9e7",
        "B accepted for E"
    );
}

#[test]
fn iccs_forms() {
    let p = Position::startpos();
    let mv = p.parse_move("H2-E2").unwrap();
    assert_eq!(p.format_move(mv), "h2e2");
    assert_eq!(Position::format_iccs_dashed(mv), "H2-E2");
    assert_eq!(p.parse_move(" h2e2 ").unwrap(), mv);
}

#[test]
fn doc_chinese_game_record() {
    let mut p = Position::startpos();
    let mut chinese = Vec::new();
    for iccs in "b0c2 b9c7 c3c4 h9i7 c2d4 h7e7".split_whitespace() {
        let mv = p.parse_iccs(iccs).unwrap();
        let text = p.format_chinese(mv);
        assert_eq!(p.parse_chinese(&text).unwrap(), mv, "{text}");
        chinese.push(text);
        p.play(mv);
    }
    assert_eq!(
        chinese.join(" "),
        "马八进七 马2进3 兵七进一 马8进9 马七进六 炮8平5"
    );
}

#[test]
fn chinese_input_variants() {
    let p = Position::startpos();
    for text in ["炮二平五", "炮二平5", "砲二平五", "包2平5", "炮２平５"] {
        assert_eq!(p.parse_move(text).unwrap().to_string(), "h2e2", "{text}");
    }
    assert_eq!(p.parse_move("傌八進七").unwrap().to_string(), "b0c2");
    assert_eq!(p.parse_move("馬八进七").unwrap().to_string(), "b0c2");
    assert_eq!(p.parse_move("俥一進一").unwrap().to_string(), "i0i1");
    assert_eq!(
        p.parse_move("车9进1").unwrap().to_string(),
        "a0a1",
        "Red file 9 written as a digit"
    );
    let b = pos(START_BLACK);
    assert_eq!(b.parse_move("車1進1").unwrap().to_string(), "a9a8");
    assert_eq!(b.parse_move("將5進1").unwrap().to_string(), "e9e8");
    assert_eq!(b.parse_move("卒3進1").unwrap().to_string(), "c6c5");
}

#[test]
fn tandem_pieces() {
    // Red rooks a0 and a3 on file 9; black cannons on e7 and e5 (Black's file 5).
    let p = pos("5k3/9/4c4/9/4c4/9/R8/9/9/R2K5 w - - 0 1");
    let front = p.parse_iccs("a3d3").unwrap();
    assert_eq!(p.format_wxf(front), "R+.6");
    assert_eq!(p.format_chinese(front), "前车平六");
    let rear = p.parse_iccs("a0a2").unwrap();
    assert_eq!(p.format_wxf(rear), "R-+2");
    assert_eq!(p.format_chinese(rear), "后车进二");
    assert_eq!(
        p.parse_move("车前平六").unwrap(),
        front,
        "old order piece-then-前"
    );
    assert_eq!(p.parse_move("俥後進二").unwrap(), rear);
    // File form with two rooks on the file: resolved when only one of them can do it.
    assert_eq!(p.parse_move("R9.6").unwrap(), front);
    match p.parse_move("R9+1") {
        Err(MoveError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["a0a1", "a3a4"]),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    // For Black the front cannon is the one nearer Red: e5.
    let b = pos("5k3/9/4c4/9/4c4/9/R8/9/9/R2K5 b - - 0 1");
    let rear_back = b.parse_iccs("e7e8").unwrap();
    assert_eq!(b.format_wxf(rear_back), "C--1");
    assert_eq!(b.format_chinese(rear_back), "后炮退1");
    assert_eq!(b.parse_move("C--1").unwrap(), rear_back);
    let front_fwd = b.parse_iccs("e5e3").unwrap();
    assert_eq!(b.format_wxf(front_fwd), "C++2");
    assert_eq!(b.format_chinese(front_fwd), "前炮进2");
}

#[test]
fn tandem_pawns_three_and_two_files() {
    // Red pawns c5, c6, c7 (file 7) and g5, g6 (file 3).
    let p = pos("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    let cases = [
        ("c7d7", "7+.6", "前七平六"),
        ("c6d6", "77.6", "中七平六"),
        ("c5b5", "7-.8", "后七平八"),
        ("g6f6", "3+.4", "前三平四"),
        ("g5h5", "3-.2", "后三平二"),
    ];
    for (iccs, wxf, zh) in cases {
        let mv = p.parse_iccs(iccs).unwrap();
        assert_eq!(
            (p.format_wxf(mv).as_str(), p.format_chinese(mv).as_str()),
            (wxf, zh),
            "{iccs}"
        );
        assert_eq!(p.parse_move(wxf).unwrap(), mv, "{wxf}");
        assert_eq!(p.parse_move(zh).unwrap(), mv, "{zh}");
    }
    // Only the c file tandem: the P forms.
    let q = pos("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    for (iccs, wxf, zh) in [
        ("c7d7", "P+.6", "前兵平六"),
        ("c6d6", "P7.6", "中兵平六"),
        ("c5b5", "P-.8", "后兵平八"),
    ] {
        let mv = q.parse_iccs(iccs).unwrap();
        assert_eq!(
            (q.format_wxf(mv).as_str(), q.format_chinese(mv).as_str()),
            (wxf, zh),
            "{iccs}"
        );
        assert_eq!(q.parse_move(wxf).unwrap(), mv, "{wxf}");
        assert_eq!(q.parse_move(zh).unwrap(), mv, "{zh}");
    }
}

#[test]
fn tandem_pawns_five_and_four() {
    let five = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    let cases = [
        ("c9d9", "++.6", "一兵平六"),
        ("c8d8", "P+.6", "二兵平六"),
        ("c7d7", "P7.6", "三兵平六"),
        ("c6d6", "P-.6", "四兵平六"),
        ("c5d5", "--.6", "五兵平六"),
    ];
    for (iccs, wxf, zh) in cases {
        let mv = five.parse_iccs(iccs).unwrap();
        assert_eq!(
            (
                five.format_wxf(mv).as_str(),
                five.format_chinese(mv).as_str()
            ),
            (wxf, zh),
            "{iccs}"
        );
        assert_eq!(five.parse_move(wxf).unwrap(), mv, "{wxf}");
        assert_eq!(five.parse_move(zh).unwrap(), mv, "{zh}");
    }
    let four = pos("2P1k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w - - 0 1");
    for (iccs, wxf) in [
        ("c9d9", "++.6"),
        ("c8d8", "P+.6"),
        ("c7d7", "P-.6"),
        ("c6d6", "--.6"),
    ] {
        let mv = four.parse_iccs(iccs).unwrap();
        assert_eq!(four.format_wxf(mv), wxf, "{iccs}");
        assert_eq!(four.parse_move(wxf).unwrap(), mv, "{wxf}");
        let zh = four.format_chinese(mv);
        assert_eq!(four.parse_move(&zh).unwrap(), mv, "{zh}");
    }
}

#[test]
fn error_messages() {
    let p = Position::startpos();
    let cases = [
        "b0d1",
        "H2-D1",
        "H8+6",
        "马八进六",
        "R1.2",
        "K5+2",
        "P3.4",
        "H5+3",
        "R+.3",
        "C2-1",
        "h2h7",
        "a9a8",
        "e5e6",
        "Q2.5",
        "xyz",
        "炮二平五五",
        "",
        "j0j1",
        "A6+5",
        "E3+1",
        "H2.3",
    ];
    let text: String = cases
        .iter()
        .map(|c| match p.parse_move(c) {
            Ok(m) => format!("{c:>10} -> ok {m}\n"),
            Err(e) => format!("{c:>10} -> {e}\n"),
        })
        .collect();
    insta::assert_snapshot!("move_errors", text);
    assert_eq!(
        p.parse_move("H8+6").unwrap_err().to_string(),
        "'H8+6': illegal: horse leg blocked"
    );
    assert_eq!(
        p.parse_move("马八进六").unwrap_err().to_string(),
        "'马八进六': illegal: horse leg blocked"
    );
}

/// A deterministic game: the doc's opening, then a pseudo-random playout preferring captures,
/// every move rendered in ICCS, WXF and Chinese (each parsed back).
#[test]
fn game_record_snapshot() {
    let mut p = Position::startpos();
    let mut lines = String::new();
    let mut seed: u64 = 0x1234_5678;
    let opening: Vec<&str> = "b0c2 b9c7 c3c4 h9i7 c2d4 h7e7".split_whitespace().collect();
    for ply in 0..160 {
        let moves = p.legal_moves();
        if moves.is_empty() || p.game_end().is_some() {
            lines.push_str(&format!("end: {:?}\n", p.game_end()));
            break;
        }
        let mv = if let Some(m) = opening.get(ply) {
            p.parse_iccs(m).unwrap()
        } else {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let caps: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| p.is_tactical(m))
                .collect();
            let pool = if !caps.is_empty() && seed >> 62 != 0 {
                caps
            } else {
                moves
            };
            pool[((seed >> 33) % pool.len() as u64) as usize]
        };
        let (wxf, zh) = (p.format_wxf(mv), p.format_chinese(mv));
        assert_eq!(p.parse_wxf(&wxf).unwrap(), mv, "{wxf}");
        assert_eq!(p.parse_chinese(&zh).unwrap(), mv, "{zh}");
        lines.push_str(&format!("{:>3}. {mv} {wxf:<5} {zh}\n", ply + 1));
        p.play(mv);
    }
    lines.push_str(&format!("final: {}\n", p.to_fen()));
    insta::assert_snapshot!("game_record", lines);
}
