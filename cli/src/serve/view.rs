//! The frame's board data ([`BoardView`]) and a game's state as the JSON the page draws.

use game_core::{Outcome, Side};
use game_frame::opening_rule::AskView;
use game_frame::{BoardView, Cell, Click, Ending, Game};
use serde_json::{Map, Value, json};

/// Cells as `[file, row]` pairs (file from the left, row from the top, the first side's view).
fn cells(list: &[Cell]) -> Value {
    list.iter().map(|&(f, r)| json!([f, r])).collect()
}

/// The board as JSON: `files`, `rows`, `cells` (row by row from the top; each `null` or
/// `{side, name, letter, symbol}` with `side` 0 for the first side), `file_labels`,
/// `row_labels`, `last`, `hints`, `hint_meaning`, `checks`, `winning`, `river` (`{rows_above, names}` or
/// `null`), `palaces` (`{from, to}`), `red_first_side`, `flippable`, `notes`, and `click`:
/// `point`, `column` or `from-to` ([`Click`]).
#[must_use]
pub fn board_json(v: &BoardView) -> Value {
    let pieces: Vec<Value> = v
        .cells
        .iter()
        .map(|c| match c {
            Some(p) => json!({
                "side": p.side.index(),
                "name": p.name,
                "letter": p.letter.to_string(),
                "symbol": p.symbol.to_string(),
            }),
            None => Value::Null,
        })
        .collect();
    let click = match v.click {
        Click::Point => "point",
        Click::Column => "column",
        Click::FromTo => "from-to",
    };
    json!({
        "files": v.files,
        "rows": v.rows,
        "cells": pieces,
        "file_labels": v.file_labels,
        "row_labels": v.row_labels,
        "last": cells(&v.last),
        "hints": cells(&v.hints),
        "hint_meaning": v.hint_meaning,
        "checks": cells(&v.checks),
        "winning": cells(&v.winning),
        "river": v.river.as_ref().map(|r| json!({"rows_above": r.rows_above, "names": r.names})),
        "palaces": v.palaces.iter().map(|p| json!({
            "from": [p.from.0, p.from.1],
            "to": [p.to.0, p.to.1],
        })).collect::<Vec<_>>(),
        "red_first_side": v.red_first_side,
        "flippable": v.flippable,
        "notes": v.notes,
        "click": click,
    })
}

/// The ending as JSON: `result` (`1-0`, `0-1`, `1/2-1/2`), `winner` (0, 1 or `null` for a
/// draw), `reason`, and `text` for people (`White wins: five in a row`).
#[must_use]
pub fn ending_json(game: &dyn Game, end: &Ending) -> Value {
    let (winner, text) = match end.outcome {
        Outcome::Win(side) => (
            json!(side.index()),
            format!("{} wins: {}", game.side_name(side), end.reason),
        ),
        Outcome::Draw => (Value::Null, format!("Draw: {}", end.reason)),
    };
    json!({
        "result": end.result_tag(),
        "winner": winner,
        "reason": end.reason,
        "text": text,
    })
}

/// What the page needs of a game at one moment: `game`, `sides` (the two sides' names),
/// `to_move` (0 or 1), `pending` (the side to move has already placed part of its turn:
/// connect6's first stone), `ending` ([`ending_json`] or `null`; `resigned` overrides the
/// game's own), `board` ([`board_json`]), `legal` (the legal moves in notation, none when
/// over), `moves` (every turn as `{side, text, notations}`, `notations` naming the turn in each
/// notation the game offers, xiangqi `ICCS`, `WXF`, `Chinese`), `move_help`.
#[must_use]
pub fn game_state(game: &dyn Game, resigned: Option<&Ending>) -> Map<String, Value> {
    let ending = resigned.cloned().or_else(|| game.ending());
    let to_move = game.side_to_move();
    let pending = game.turn_sides().last() == Some(&to_move);
    let notations = game.turn_notations();
    let moves: Vec<Value> = game
        .turn_texts()
        .into_iter()
        .zip(notations)
        .map(|((side, text), names)| {
            let names: Map<String, Value> = names
                .into_iter()
                .map(|(name, text)| (name.to_string(), json!(text)))
                .collect();
            json!({"side": side.index(), "text": text, "notations": names})
        })
        .collect();
    let legal = if ending.is_some() {
        Vec::new()
    } else {
        game.legal_moves()
    };
    let mut m = Map::new();
    m.insert("game".into(), json!(game.name()));
    m.insert(
        "sides".into(),
        json!([game.side_name(Side::First), game.side_name(Side::Second)]),
    );
    m.insert("to_move".into(), json!(to_move.index()));
    m.insert("pending".into(), json!(pending));
    m.insert(
        "ending".into(),
        ending
            .as_ref()
            .map_or(Value::Null, |e| ending_json(game, e)),
    );
    m.insert("board".into(), board_json(&game.board()));
    m.insert("legal".into(), json!(legal));
    m.insert("moves".into(), json!(moves));
    m.insert("move_help".into(), json!(game.move_help()));
    m
}

/// The opening rule's part of the state: `null` for a game without one, else `rule` (its
/// name) and `asked`: `null` once the opening is over, or the step asked now: `seat` (0 the
/// first player, 1 the other), `kind` (`place`, `choose`, `offer` or `pick`), `prompt` (in
/// words), `allowed` (points for a stone; empty for any), `options` (`{key, text}`),
/// `count` (moves to offer) and `offered` (moves to pick from).
#[must_use]
pub fn opening_json(game: &dyn Game, ask: Option<&AskView>) -> Value {
    let Some(rule) = game.opening_name() else {
        return Value::Null;
    };
    let asked = ask.map(|a| {
        json!({
            "seat": a.role.index(),
            "kind": a.kind,
            "prompt": a.prompt,
            "allowed": a.allowed,
            "options": a.options.iter().map(|c| json!({"key": c.key, "text": c.text})).collect::<Vec<_>>(),
            "count": a.count,
            "offered": a.offered,
        })
    });
    json!({"rule": rule, "asked": asked})
}
