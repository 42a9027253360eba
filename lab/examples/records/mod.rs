//! Game records of `qi match --records` for the examples: each game's tags and turns.

/// One game of a records file.
pub struct Game {
    /// The text of the game after its `[Game ` opening.
    text: String,
    /// The turns in LittleGolem notation (`j10`, `k9k8`), move numbers and result left out.
    pub turns: Vec<String>,
}

impl Game {
    /// The value of tag `name` (`Black`, `Result`, `Round`...), empty when absent.
    pub fn tag(&self, name: &str) -> String {
        self.text
            .lines()
            .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
            .map(|v| v.trim_end_matches("\"]").to_string())
            .unwrap_or_default()
    }
}

/// The games of a records file's `text`, in order.
pub fn games(text: &str) -> Vec<Game> {
    text.split("[Game ")
        .skip(1)
        .map(|game| {
            let body: String = game
                .lines()
                .skip(1)
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ");
            let turns = body
                .split_whitespace()
                .filter(|t| !t.ends_with('.') && !t.contains('-'))
                .map(str::to_string)
                .collect();
            Game {
                text: game.to_string(),
                turns,
            }
        })
        .collect()
}
