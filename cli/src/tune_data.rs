//! The `--data` files of `qi tune`: data files of `qi selfplay` as they are, or game records
//! (`qi match --records`, `save`) turned into data.
//!
//! A record file becomes one data line per position of every game that ended by the rules (a
//! five, a six, mate, a draw by rule): the position after each ply from the start (connect6's
//! mid-turn positions included), labelled with that game's result. Games cut short (a time
//! forfeit, an illegal move, a resignation, an unfinished record) say nothing reliable about
//! their positions and are skipped; the data's first line, a comment, counts both.

use std::fmt::Write as _;
use std::path::Path;

use game_frame::tuning::DataText;
use game_frame::{EngineConfig, GameSpec, Setup};

use crate::CliError;
use crate::record;

/// Reads one `--data` file for a fit of `game`'s weights. Data files pass unchanged; a file
/// whose first line that is neither blank nor a `#` comment is a tag (`[Game "Connect6"]`)
/// holds records and is converted (see the module documentation).
///
/// # Errors
/// [`CliError::Usage`] when the file cannot be read or is not UTF-8 (with the line of the first
/// bad byte), or, for records, when a record does not load (as `qi play --load` says it, with
/// the game's number in the file) or is of another game.
pub fn read(path: &Path, game: &'static dyn GameSpec) -> Result<DataText, CliError> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| CliError::Usage(format!("cannot read {name}: {e}")))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(CliError::Usage(format!(
                "{name}:{line}: not UTF-8 text: expected a data file of `qi selfplay` or game \
                 records"
            )));
        }
    };
    let text = text.trim_start_matches('\u{feff}');
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if !first.is_some_and(|l| l.starts_with('[')) {
        return Ok(DataText {
            name,
            text: text.to_string(),
        });
    }
    let text = records_to_data(text, &name, game)?;
    Ok(DataText { name, text })
}

/// The data lines of the records in `text` (see the module documentation), after a comment
/// line naming the file and counting the games used and skipped.
fn records_to_data(
    text: &str,
    name: &str,
    game: &'static dyn GameSpec,
) -> Result<String, CliError> {
    let mut lines = String::new();
    let (mut used, mut skipped) = (0, 0);
    for (i, chunk) in record::games(text).into_iter().enumerate() {
        let label = format!("{name} (game {})", i + 1);
        if let Some(kind) = record::game_of(chunk)
            && kind.family() != game.family()
        {
            return Err(CliError::Usage(format!(
                "{label}: the record is a {} game: expected {} records to fit {}'s weights",
                kind.name(),
                game.family(),
                game.name()
            )));
        }
        let played = record::load(
            chunk,
            &label,
            None,
            &Setup::default(),
            &EngineConfig::small(),
        )?;
        let Some(end) = played.ending() else {
            skipped += 1;
            continue;
        };
        used += 1;
        for position in played.tune_positions() {
            // Writing to a String cannot fail.
            let _ = writeln!(lines, "{}\t{position}", end.result_tag());
        }
    }
    Ok(format!(
        "# records {name}: {used} game(s) ended by the rules, {skipped} cut short (skipped)\n{lines}"
    ))
}
