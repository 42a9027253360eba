//! Texel tuning (`qi tune`): fits a game's evaluation weights to self-play data (Texel tuning, the `tune`
//! crate) and writes them as the game crate's `weights.rs`.

use std::io::Write;
use std::path::PathBuf;

use game_core::tune::{PolicyTunable, Tunable};
use tune::{
    AdamConfig, Dataset, PolicyData, fit_scale, policy_rust_source, round_values, rust_source,
};

use crate::FrameError;

/// One data input of `qi tune`: its name in messages (the file) and its text, in the format of
/// `qi selfplay`'s data files (`tune::data`).
#[derive(Clone, Debug)]
pub struct DataText {
    /// The file the text came from, as messages name it.
    pub name: String,
    /// Comment lines (`#`) and `result<TAB>position` lines.
    pub text: String,
}

/// What `qi tune` was asked.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The data, one entry per file given.
    pub data: Vec<DataText>,
    /// Held-out data, scored but not fitted (may be empty).
    pub validate: Vec<DataText>,
    /// Adam epochs.
    pub epochs: usize,
    /// Adam step size in weight units.
    pub learning_rate: f64,
    /// Threads for reading and fitting.
    pub threads: usize,
    /// Where to write the Rust source (`None`: stdout).
    pub out: Option<PathBuf>,
    /// The command line, for the weights file's header.
    pub command: String,
}

/// Reads the data, fits `K` and the weights of `P`'s evaluation, prints the errors and the
/// changed weights to stderr and writes the weights source.
///
/// # Errors
/// [`FrameError::Usage`] for data that does not read or holds no usable position;
/// [`FrameError::Failed`] when the output cannot be written.
pub fn run<P: Tunable>(settings: &Settings) -> Result<(), FrameError> {
    check_out(settings)?;
    let mut data = Dataset::for_game::<P>();
    for file in &settings.data {
        data.read_text::<P>(&file.name, &file.text, settings.threads)
            .map_err(|e| FrameError::Usage(e.to_string()))?;
    }
    if data.is_empty() {
        return Err(FrameError::Usage(tune::TuneError::Empty.to_string()));
    }
    if (0..data.len()).all(|i| data.sample(i).target == 0.5) {
        return Err(FrameError::Usage(
            "every position's game was drawn: the results say nothing to fit the evaluation \
             to (give data with decided games)"
                .to_string(),
        ));
    }
    // The held-out data is read before the fit, so that a bad file costs no fitting time.
    let held = read_held_out::<P>(settings)?;
    eprintln!(
        "{} positions ({} decisive ones skipped) from {} file(s)",
        data.len(),
        data.skipped,
        settings.data.len()
    );
    let mut start: Vec<f64> = data.weights.iter().map(|w| f64::from(w.value)).collect();
    let k = fit_scale(&data, &start, settings.threads);
    let before = data.error(&start, k, settings.threads);
    eprintln!("K = {k:.6}; mean squared error of the build's weights {before:.6}");
    // The model's colour term (the first side's advantage) starts at 0 and is fitted too.
    start.push(0.0);
    let config = AdamConfig {
        epochs: settings.epochs,
        learning_rate: settings.learning_rate,
        threads: settings.threads,
    };
    let fitted = data.adam(&start, k, &config, |epoch, error| {
        if !error.is_nan() {
            eprint!("\repoch {epoch}/{}: error {error:.6}   ", settings.epochs);
        }
    });
    if settings.epochs > 0 {
        eprintln!();
    }
    let values = round_values(&data, &fitted);
    let colour = fitted[data.weights.len()];
    let mut rounded: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    rounded.push(colour);
    let after = data.error(&rounded, k, settings.threads);
    eprintln!(
        "mean squared error of the tuned weights {after:.6} (was {before:.6}); the first side's \
         advantage (fitted, not part of the evaluation) {colour:.1}"
    );
    for (w, &v) in data.weights.iter().zip(&values) {
        if v != w.value {
            eprintln!("  {:<36} {:>7} -> {v}", w.name, w.value);
        }
    }
    if let Some(held) = held {
        let held = held_out(settings, &held, &data, k, &start, &rounded);
        eprintln!(
            "held out: {} positions from {} file(s); mean squared error of a constant \
             prediction {:.6}, of the first side's advantage alone {:.6}, of the build's \
             weights {:.6}, of the tuned weights {:.6} ({:.6} without the first side's \
             advantage, as the engine evaluates)",
            held.positions,
            settings.validate.len(),
            held.constant,
            held.colour_only,
            held.build,
            held.tuned,
            held.tuned_without_colour
        );
    }
    let mut sources: Vec<String> = Vec::new();
    for c in &data.comments {
        let source = c.starts_with("qi selfplay") || c.starts_with("records ");
        if source && !sources.contains(c) {
            sources.push(c.clone());
        }
    }
    let mut provenance = vec![
        format!("Tuned by `{}`", settings.command),
        format!(
            "from {} positions of games (K = {k:.6}; mean squared error {before:.6} with the \
             previous weights, {after:.6} with these and a first-side advantage of {colour:.0}). \
             The data came from:",
            data.len()
        ),
    ];
    provenance.extend(sources.iter().map(|s| format!("- `{s}`")));
    let text = rust_source(P::GAME, &data.weights, &values, &provenance);
    write_source(settings, &text)
}

/// The errors on held-out data ([`Settings::validate`]) of four predictions, each
/// `sigmoid(K · eval)` at the `K` fitted to the training data except the first.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct HeldOut {
    /// Positions scored.
    pub positions: usize,
    /// The training data's mean result for every position (a model that knows nothing).
    pub constant: f64,
    /// Every weight 0 and the fitted first-side advantage: what the side to move alone says.
    pub colour_only: f64,
    /// The build's weights (no colour term, as the engine evaluates).
    pub build: f64,
    /// The tuned weights with the fitted colour term.
    pub tuned: f64,
    /// The tuned weights alone, as the engine evaluates (a constant per colour does not change
    /// which move a search prefers, but it does change the prediction).
    pub tuned_without_colour: f64,
}

/// Reads the held-out data ([`Settings::validate`]); `None` without any. A file given as
/// training data too is named on stderr: its positions are not held out.
///
/// # Errors
/// [`FrameError::Usage`] for held-out data that does not read or holds no usable position.
fn read_held_out<P: Tunable>(settings: &Settings) -> Result<Option<Dataset>, FrameError> {
    if settings.validate.is_empty() {
        return Ok(None);
    }
    let mut held = Dataset::for_game::<P>();
    for file in &settings.validate {
        if settings.data.iter().any(|d| d.name == file.name) {
            eprintln!(
                "qi tune: {} is training data too: its positions are not held out",
                file.name
            );
        }
        held.read_text::<P>(&file.name, &file.text, settings.threads)
            .map_err(|e| FrameError::Usage(format!("--validate: {e}")))?;
    }
    if held.is_empty() {
        return Err(FrameError::Usage(format!(
            "--validate: {}",
            tune::TuneError::Empty
        )));
    }
    Ok(Some(held))
}

/// Scores the held-out data `held`: see [`HeldOut`]. `build` are the build's weight values,
/// `tuned` the rounded fitted values with the colour term last.
fn held_out(
    settings: &Settings,
    held: &Dataset,
    training: &Dataset,
    k: f64,
    build: &[f64],
    tuned: &[f64],
) -> HeldOut {
    let mean = (0..training.len())
        .map(|i| f64::from(training.sample(i).target))
        .sum::<f64>()
        / training.len() as f64;
    let constant = (0..held.len())
        .map(|i| (f64::from(held.sample(i).target) - mean).powi(2))
        .sum::<f64>()
        / held.len() as f64;
    let mut colour_only = vec![0.0; tuned.len()];
    colour_only[held.weights.len()] = tuned[held.weights.len()];
    HeldOut {
        positions: held.len(),
        constant,
        colour_only: held.error(&colour_only, k, settings.threads),
        build: held.error(build, k, settings.threads),
        tuned: held.error(tuned, k, settings.threads),
        tuned_without_colour: held.error(&tuned[..held.weights.len()], k, settings.threads),
    }
}

/// Refuses an output path that cannot be written before the fit starts: a directory, or a
/// file in a folder that does not exist.
fn check_out(settings: &Settings) -> Result<(), FrameError> {
    let Some(path) = &settings.out else {
        return Ok(());
    };
    if path.is_dir() {
        return Err(FrameError::Usage(format!(
            "--out {} is a directory: expected a file such as gomoku/src/weights.rs",
            path.display()
        )));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !parent.is_dir() {
        return Err(FrameError::Usage(format!(
            "--out {}: the folder {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

fn write_source(settings: &Settings, text: &str) -> Result<(), FrameError> {
    match &settings.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| FrameError::Failed(format!("cannot write {}: {e}", path.display())))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// L2 pull of the policy fit (`tune::PolicyData::adam`): keeps the values of rare pattern
/// codes near zero.
const POLICY_L2: f64 = 1e-3;

/// Reads the data, fits the move-ordering weights of `P` to the moves played (softmax
/// regression, [`tune::policy`]), prints the loss and top-1 accuracy before and after to stderr
/// and writes the weights source (`policy_weights.rs`).
///
/// # Errors
/// As [`run`].
pub fn run_policy<P: PolicyTunable>(settings: &Settings) -> Result<(), FrameError> {
    check_out(settings)?;
    let mut data = PolicyData::for_game::<P>();
    for file in &settings.data {
        data.read_text::<P>(&file.name, &file.text, settings.threads)
            .map_err(|e| FrameError::Usage(e.to_string()))?;
    }
    if data.is_empty() {
        return Err(FrameError::Usage(tune::TuneError::NoMoves.to_string()));
    }
    eprintln!(
        "{} moves ({} lines skipped), {:.1} candidates a move, from {} file(s)",
        data.len(),
        data.skipped,
        data.mean_candidates(),
        settings.data.len()
    );
    let start: Vec<f64> = data.weights.iter().map(|w| f64::from(w.value)).collect();
    let (loss0, top0) = data.loss(&start, settings.threads);
    eprintln!(
        "build's weights: cross-entropy {loss0:.4}, top-1 {:.1} %",
        100.0 * top0
    );
    let config = AdamConfig {
        epochs: settings.epochs,
        learning_rate: settings.learning_rate,
        threads: settings.threads,
    };
    let fitted = data.adam(&start, &config, POLICY_L2, |epoch, loss| {
        eprint!(
            "\repoch {epoch}/{}: cross-entropy {loss:.4}   ",
            settings.epochs
        );
    });
    if settings.epochs > 0 {
        eprintln!();
    }
    let values: Vec<i32> = fitted
        .iter()
        .zip(&data.weights)
        .map(|(&x, w)| (x.round() as i32).clamp(w.min, w.max))
        .collect();
    let rounded: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    let (loss, top) = data.loss(&rounded, settings.threads);
    eprintln!(
        "tuned weights: cross-entropy {loss:.4}, top-1 {:.1} % (was {loss0:.4}, {:.1} %)",
        100.0 * top,
        100.0 * top0
    );
    let provenance = vec![
        format!("Tuned by `{}`", settings.command),
        format!(
            "from {} moves (cross-entropy {loss0:.4} and top-1 {:.1} % with the previous weights, \
             {loss:.4} and {:.1} % with these).",
            data.len(),
            100.0 * top0,
            100.0 * top
        ),
    ];
    let text = policy_rust_source(P::GAME, &data.weights, &values, &provenance);
    write_source(settings, &text)
}
