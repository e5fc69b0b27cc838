//! The picture of a race game, read from its rules alone (a custom
//! rule-set file included): the board, the pieces and the throw.

use std::collections::BTreeMap;

use ur_rules::dice::Extra;
use ur_rules::game::{Action, Phase};
use ur_rules::race::text::cell_name;
use ur_rules::{Game, Rules, Side, SquareKind};

use super::words::{moves, shows, throw_extras, Notes, Phrase};
use super::{build_board, piece, push, square_id, throw_view, BoardView, PositionView, ThrowRow, ThrowView};

/// A race game's board, position and throw.
pub(super) fn race_parts(g: &Game) -> (BoardView, PositionView, Option<ThrowView>) {
    (race_board(g.rules()), race_position(g), race_throw(g))
}

/// A race board from its rules alone: geometry, paths, square kinds and rosettes.
fn race_board(rules: &Rules) -> BoardView {
    let len = rules.path_len();
    let path = |side: Side| (1..=len).map(|p| rules.cell(side, p)).collect::<Vec<_>>();
    let spec = &rules.spec;
    build_board(
        &rules.board,
        [path(Side::Light), path(Side::Dark)],
        true,
        |c| cell_name(rules, c),
        |cell, marks| {
            let Ok(sq) = rules.squares().binary_search(&cell) else { return };
            let on_path = Side::BOTH.into_iter().find_map(|s| {
                let p = rules.positions_on(s, sq as u8)[0];
                (p > 0).then_some((s, p))
            });
            if let Some((side, pos)) = on_path {
                match rules.kind(side, pos) {
                    SquareKind::Safe => push(marks, "safe"),
                    SquareKind::Shared => push(marks, "shared"),
                    SquareKind::Plain => {}
                }
            }
            if rules.board.is_rosette(cell) {
                if spec.rosettes.stop {
                    push(marks, "stop");
                }
                if spec.rosettes.extra_roll != Extra::None {
                    push(marks, "extra_roll");
                }
            }
        },
    )
}

fn race_position(g: &Game) -> PositionView {
    let rules = g.rules();
    let st = g.state();
    let cols = rules.board.cols;
    let mut pieces = Vec::new();
    for side in Side::BOTH {
        if let Some(birds) = &rules.spec.birds {
            for (i, &pos) in st.birds(side, rules).iter().enumerate() {
                if (1..=rules.path_len()).contains(&pos) {
                    let name = birds.names.get(i).cloned().unwrap_or_else(|| format!("bird {}", i + 1));
                    pieces.push(piece(square_id(cols, rules.cell(side, pos)), side, 1, Some(name)));
                }
            }
            continue;
        }
        let mut per: BTreeMap<u16, u32> = BTreeMap::new();
        for pos in 1..=rules.path_len() {
            let n = u32::from(st.count_at(side, pos));
            if n > 0 {
                *per.entry(square_id(cols, rules.cell(side, pos))).or_default() += n;
            }
        }
        pieces.extend(per.into_iter().map(|(sq, n)| piece(sq, side, n, None)));
    }
    let mut notes = Notes::default();
    if let Some(paid) = g.pot_paid() {
        let name = |s: Side| rules.spec.sides[s.index()].clone();
        notes.push(
            format!("Pot: {} has paid {}, {} has paid {}", name(Side::Light), paid[0], name(Side::Dark), paid[1]),
            Phrase::new("note.pot").with("light", paid[0]).with("dark", paid[1]),
        );
    }
    if rules.named_pieces() && matches!(g.phase(), Phase::Declare | Phase::Roll) {
        if let (Some(b), Some(birds)) = (g.next_bird(), &rules.spec.birds) {
            let name = birds.names.get(usize::from(b) - 1).cloned().unwrap_or_default();
            let need = rules.call_value(b);
            let words = Phrase::new("note.next_bird").with("bird", name.clone()).with("n", b).with("need", need);
            notes.push(format!("Next bird to summon: {name} ({b}), called with a {need}"), words);
        }
    }
    let count = |f: fn(&ur_rules::State, Side) -> u8| [u32::from(f(st, Side::Light)), u32::from(f(st, Side::Dark))];
    PositionView {
        pieces,
        reserve: count(ur_rules::State::reserve),
        off: count(ur_rules::State::off),
        notes: notes.text,
        note_words: notes.words,
    }
}

/// The race's throw: the throw awaiting a move, or the last roll when the
/// decision is whether to roll again.
fn race_throw(g: &Game) -> Option<ThrowView> {
    let rules = g.rules();
    let raw = match g.phase() {
        Phase::Move => g.throw().map(|t| t.raw),
        Phase::ExtraRoll => g.history().iter().rev().find_map(|a| match a {
            Action::Roll(raw) => Some(*raw),
            _ => None,
        }),
        _ => None,
    }?;
    let t = rules.throw(raw)?;
    let throws: Vec<_> = rules.throws().map(|(t, _)| t).collect();
    let plain = throws.iter().all(|t| t.value == t.raw && t.extra == Extra::None && t.enter);
    let table = if plain {
        Vec::new()
    } else {
        throws
            .iter()
            .map(|t| {
                let (text, words) = throw_extras(t.extra, t.enter);
                ThrowRow { raw: t.raw, value: t.value, text, words }
            })
            .collect()
    };
    let (shown, shown_words) = shows(rules.dice(), raw);
    let (moved, moved_words) = moves(t.value);
    let mut text = format!("{shown}: {moved}");
    let mut words = vec![shown_words, moved_words];
    let (extra, extra_words) = throw_extras(t.extra, t.enter);
    if t.value > 0 && !extra.is_empty() {
        text += &format!(", {extra}");
        words.extend(extra_words);
    }
    Some(throw_view(rules.dice(), raw, t.value, (text, words), table))
}
