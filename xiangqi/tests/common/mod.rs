//! Readers of the shared reference files.
#![allow(dead_code)]

/// `reference/xiangqi/perft.txt`.
pub const PERFT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/xiangqi/perft.txt"
));
/// `reference/xiangqi/tactics.txt`.
pub const TACTICS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/xiangqi/tactics.txt"
));

/// One perft reference position.
pub struct PerftCase {
    /// Its id (`start`, `p2`, ...).
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// (depth, leaf count) pairs.
    pub depths: Vec<(u32, u64)>,
}

/// The perft reference positions.
pub fn perft_cases() -> Vec<PerftCase> {
    let mut out: Vec<PerftCase> = Vec::new();
    for line in PERFT
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').expect("key value");
        match key {
            "id" => out.push(PerftCase {
                id: rest.to_string(),
                fen: String::new(),
                depths: Vec::new(),
            }),
            "fen" => out.last_mut().expect("id first").fen = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth nodes");
                out.last_mut()
                    .expect("id first")
                    .depths
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => panic!("unknown line {line}"),
        }
    }
    out
}

/// (id, FEN) of the tactics positions.
pub fn tactics() -> Vec<(String, String)> {
    TACTICS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (f[0].to_string(), f[1].to_string())
        })
        .collect()
}
