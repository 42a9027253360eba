//! The terminal renderer: any [`BoardView`] as text, with coordinates on all four edges, the
//! last turn in parentheses and optional ANSI colours.

use game_core::Side;

use crate::board::{BoardView, Cell};

/// Display settings for boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// Unicode stones and Chinese pieces; false: ASCII (X O, FEN letters).
    pub unicode: bool,
    /// Emit ANSI colour codes (the output stream strips them for `NO_COLOR` and non-terminals).
    pub color: bool,
    /// Draw the board from the second side's view (xiangqi: Black at the bottom); boards that
    /// are not [`BoardView::flippable`] ignore it.
    pub flipped: bool,
}

/// ANSI helper: `text` wrapped in the SGR colour `code` when `on`.
#[must_use]
pub fn paint(on: bool, code: &str, text: &str) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The character between two cells of a board row: `(` opens a marked cell, `)` closes one,
/// `|` sits between two marked cells.
fn mark_separator(left_marked: bool, marked: bool) -> char {
    match (left_marked, marked) {
        (true, true) => '|',
        (false, true) => '(',
        (true, false) => ')',
        (false, false) => ' ',
    }
}

/// `view` drawn for a terminal: file labels above and below, row labels (right-aligned, at
/// least two columns) on both sides, one column between cells (`(`, `)` or `|` around the last
/// turn's cells), the river's names between its rows, the hint legend and the notes below.
/// Wide symbols take two columns, and so does an empty cell of a wide board (`＋`).
#[must_use]
pub fn render(view: &BoardView, style: &Style) -> String {
    let flip = style.flipped && view.flippable;
    let files: Vec<usize> = if flip {
        (0..view.files).rev().collect()
    } else {
        (0..view.files).collect()
    };
    let rows: Vec<usize> = if flip {
        (0..view.rows).rev().collect()
    } else {
        (0..view.rows).collect()
    };
    let wide = style.unicode && view.wide_symbols;
    let width = if wide { 2 } else { 1 };
    let label_width = view
        .row_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(2);
    let margin = " ".repeat(label_width + 1);
    let header: String = files
        .iter()
        .map(|&f| format!(" {:<width$}", view.file_labels[f]))
        .collect();
    let header = format!("{margin}{header}\n");
    let (empty, hint) = match (style.unicode, wide) {
        (true, true) => ('＋', '×'),
        (true, false) => ('·', '×'),
        (false, _) => ('.', 'x'),
    };
    let marked = |c: Cell| view.last.contains(&c);
    let mut out = header.clone();
    for (i, &row) in rows.iter().enumerate() {
        if let Some(river) = &view.river {
            let above = if flip {
                view.rows - river.rows_above
            } else {
                river.rows_above
            };
            if i == above && i > 0 {
                out.push_str(&margin);
                if style.unicode {
                    let spaced =
                        |name: &str| name.chars().map(String::from).collect::<Vec<_>>().join(" ");
                    let (left, right) = if flip {
                        (&river.names[1], &river.names[0])
                    } else {
                        (&river.names[0], &river.names[1])
                    };
                    out.push_str(&format!(
                        "    {}              {}\n",
                        spaced(left),
                        spaced(right)
                    ));
                } else {
                    out.push_str("   ~~~~~ river ~~~~~\n");
                }
            }
        }
        let label = &view.row_labels[row];
        let mut line = format!("{label:>label_width$} ");
        for (j, &file) in files.iter().enumerate() {
            let cell = (file, row);
            let here = marked(cell);
            let sep = mark_separator(j > 0 && marked((files[j - 1], row)), here);
            line.push_str(&paint(style.color && sep != ' ', "1;33", &sep.to_string()));
            let text = match view.piece(cell) {
                Some(p) => {
                    let glyph = if style.unicode { p.symbol } else { p.letter };
                    let red = if view.red_first_side {
                        p.side == Side::First
                    } else {
                        here
                    };
                    paint(
                        style.color,
                        if red { "1;31" } else { "1" },
                        &glyph.to_string(),
                    )
                }
                None if view.hints.contains(&cell) => paint(style.color, "35", &hint.to_string()),
                None => paint(style.color, "2", &empty.to_string()),
            };
            line.push_str(&text);
        }
        let end = match files.last() {
            Some(&f) if marked((f, row)) => ')',
            _ => ' ',
        };
        line.push_str(&paint(style.color && end != ' ', "1;33", &end.to_string()));
        line.push_str(&format!(" {label}\n"));
        out.push_str(&line);
    }
    out.push_str(&header);
    if !view.hints.is_empty()
        && let Some(meaning) = &view.hint_meaning
    {
        out.push_str(&format!("({hint} {meaning})\n"));
    }
    for note in &view.notes {
        out.push_str(note);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::stone;

    fn plain() -> Style {
        Style {
            unicode: false,
            color: false,
            flipped: false,
        }
    }

    #[test]
    fn a_stone_board_with_its_last_stone_marked() {
        let mut v = BoardView::lettered(3);
        v.set((0, 2), Some(stone(Side::First)));
        v.set((1, 2), Some(stone(Side::Second)));
        v.last = vec![(1, 2)];
        v.notes.push("Black to move.".to_string());
        assert_eq!(
            render(&v, &plain()),
            "    a b c\n 3  . . .  3\n 2  . . .  2\n 1  X(O).  1\n    a b c\nBlack to move.\n"
        );
    }

    #[test]
    fn hints_get_a_legend_and_marks_at_the_edge_close() {
        let mut v = BoardView::lettered(2);
        v.hints = vec![(0, 0)];
        v.hint_meaning = Some("forbidden".to_string());
        v.set((1, 1), Some(stone(Side::First)));
        v.last = vec![(1, 1)];
        assert_eq!(
            render(&v, &plain()),
            "    a b\n 2  x .  2\n 1  .(X) 1\n    a b\n(x forbidden)\n"
        );
    }

    #[test]
    fn a_flippable_board_turns_round_and_keeps_its_river_in_the_middle() {
        let mut v = BoardView::new(
            2,
            2,
            vec!["a".into(), "b".into()],
            vec!["1".into(), "0".into()],
        );
        v.flippable = true;
        v.river = Some(crate::board::River {
            rows_above: 1,
            names: ["楚河".into(), "汉界".into()],
        });
        v.set((0, 1), Some(stone(Side::First)));
        let flipped = Style {
            flipped: true,
            ..plain()
        };
        assert_eq!(
            render(&v, &flipped),
            "    b a\n 0  . X  0\n      ~~~~~ river ~~~~~\n 1  . .  1\n    b a\n"
        );
    }
}
