//! Painting: the board's cells in colours and modifiers that also read on
//! a monochrome terminal, and the dice drawn as dice.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ur_session::view::ThrowView;

use super::board::{Cell, Glyphs, Tone};

/// The style of a tone; without colour, modifiers alone tell them apart.
pub fn tone_style(tone: Tone, color: bool) -> Style {
    let s = Style::default();
    let c = |style: Style, fg: Color| if color { style.fg(fg) } else { style };
    match tone {
        Tone::Plain => s,
        Tone::Border => c(s, Color::DarkGray),
        Tone::Deco => c(s, Color::Cyan),
        Tone::Rosette => c(s.add_modifier(Modifier::BOLD), Color::Magenta),
        Tone::Role => c(s.add_modifier(Modifier::BOLD), Color::Green),
        Tone::Light => c(s.add_modifier(Modifier::BOLD), Color::Yellow),
        Tone::Dark => c(s, Color::LightBlue),
        Tone::Dim => c(s.add_modifier(Modifier::DIM), Color::DarkGray),
        Tone::Source => s.add_modifier(Modifier::REVERSED | Modifier::BOLD),
        Tone::Target => {
            let s = s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            if color {
                s.fg(Color::Black).bg(Color::Green)
            } else {
                s
            }
        }
    }
}

/// A row of cells as a line of spans, one span per run of one tone.
pub fn cells_line(cells: &[Cell], color: bool) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut tone = None;
    for c in cells {
        if tone != Some(c.tone) {
            if let Some(t) = tone {
                spans.push(Span::styled(std::mem::take(&mut run), tone_style(t, color)));
            }
            tone = Some(c.tone);
        }
        run.push(c.ch);
    }
    if let Some(t) = tone {
        spans.push(Span::styled(run, tone_style(t, color)));
    }
    Line::from(spans)
}

/// The dice of a throw, drawn: pyramids (or sticks) with their marked tips
/// filled, or a die's face in a box.
pub fn dice_text(kind: &str, dice: &[u8], glyphs: Glyphs) -> String {
    match kind {
        "binary" => dice
            .iter()
            .map(|&d| match (d > 0, glyphs.ascii) {
                (true, false) => "▲",
                (false, false) => "△",
                (true, true) => "^",
                (false, true) => ".",
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => dice.iter().map(|d| format!("[{d}]")).collect::<Vec<_>>().join(" "),
    }
}

/// The throw as dice with what it means, and its throw table when the
/// rule set counts throws other than the dice show.
pub fn throw_lines(t: &ThrowView, glyphs: Glyphs) -> Vec<String> {
    let mut out = vec![format!("{}   {}", dice_text(&t.kind, &t.dice, glyphs), t.text)];
    if !t.table.is_empty() {
        let arrow = if glyphs.ascii { "->" } else { "→" };
        let rows: Vec<String> = t.table.iter().map(|r| format!("{}{arrow}{}", r.raw, r.value)).collect();
        out.push(format!("Throws count: {}", rows.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_show_their_marked_tips() {
        assert_eq!(dice_text("binary", &[1, 0, 1, 0], Glyphs::UNICODE), "▲ △ ▲ △");
        assert_eq!(dice_text("binary", &[1, 0], Glyphs::ASCII), "^ .");
        assert_eq!(dice_text("d6", &[4], Glyphs::UNICODE), "[4]");
    }

    #[test]
    fn without_colour_the_tones_that_matter_still_differ() {
        let styles = [Tone::Plain, Tone::Light, Tone::Source, Tone::Target, Tone::Rosette].map(|t| tone_style(t, false));
        for (i, a) in styles.iter().enumerate() {
            assert!(a.fg.is_none() && a.bg.is_none());
            for b in &styles[i + 1..] {
                // Light and the rosette are both bold: their shapes differ (○ and ✿).
                if a.add_modifier != b.add_modifier || (*a == tone_style(Tone::Light, false) && *b == tone_style(Tone::Rosette, false)) {
                    continue;
                }
                panic!("two tones look alike without colour: {a:?} {b:?}");
            }
        }
    }

    #[test]
    fn runs_of_one_tone_are_one_span() {
        let cells = [Tone::Plain, Tone::Plain, Tone::Light, Tone::Plain].map(|tone| Cell { ch: 'a', tone });
        assert_eq!(cells_line(&cells, true).spans.len(), 3);
    }
}
