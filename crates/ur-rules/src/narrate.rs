//! A game told in words, for players: each open decision's label, what a
//! roll and a decision did, the heading of a decision, the introduction
//! and the input forms, and reading a typed decision, for every family.
//!
//! Race games say the most (squares by name, birds, throws and their
//! effects); the other families speak through their actions' own text.

use crate::any::AnyGame;
use crate::dice::{DiceModel, Extra, Throw};
use crate::effects::effects;
use crate::game::{Action, Choice, Game, Phase};
use crate::movegen::Move;
use crate::play::{PlayError, Playable, Turn};
use crate::race::text::{board_key, move_text, path_diagram, position_name, side_label};
use crate::report::{Rolled, SummonStage};
use crate::rules::Rules;
use crate::{AnyAction, Side};

pub use crate::effects::{Effect, Lang};
pub use moves::{family_label, with_effects};

mod moves;

/// The name a player is called by.
pub fn side_name(game: &AnyGame, side: Side) -> String {
    match game {
        AnyGame::Race(g) => side_label(g.rules(), side),
        _ => game.side_name(side).to_string(),
    }
}

/// [`side_name`] in a language: the rule sets' side names in French.
pub fn side_name_in(game: &AnyGame, side: Side, lang: Lang) -> String {
    let name = side_name(game, side);
    if lang == Lang::En {
        return name;
    }
    const FR: [(&str, &str); 10] = [
        ("Player A", "Joueur A"),
        ("Player B", "Joueur B"),
        ("Light", "Clair"),
        ("Dark", "Foncé"),
        ("Black", "Noir"),
        ("White", "Blanc"),
        ("Red", "Rouge"),
        ("Blue", "Bleu"),
        ("(light)", "(clair)"),
        ("(dark)", "(foncé)"),
    ];
    FR.iter().fold(name, |n, (en, fr)| n.replace(en, fr))
}

/// Where a game stands, in a sentence: its result, or who plays and what
/// the game waits for (and a pot's payments, where there is one).
pub fn standing_line(game: &AnyGame) -> String {
    standing_line_in(game, Lang::En)
}

/// [`standing_line`] in a language.
pub fn standing_line_in(game: &AnyGame, lang: Lang) -> String {
    if lang == Lang::Fr {
        return standing_fr(game);
    }
    let name = |s| side_name(game, s);
    let mut line = match (game.turn(), game) {
        (Turn::Over(Some(w)), _) => format!("Result: {} wins.", name(w)),
        (Turn::Over(None), AnyGame::Race(_)) => "Result: game over.".into(),
        (Turn::Over(None), _) => "Result: a draw.".into(),
        (Turn::Roll(s), _) => format!("Game unfinished: {} to play; the game waits for a roll.", name(s)),
        (Turn::Decide(s), AnyGame::Race(g)) => {
            format!("Game unfinished: {} to play; the game waits for {}.", name(s), race_waits(g.phase()))
        }
        (Turn::Decide(s), _) => format!("Game unfinished: {} to play; the game waits for a decision.", name(s)),
    };
    if let AnyGame::Race(g) = game {
        if let Some(paid) = g.pot_paid() {
            line += &format!("\nPot: light paid {}, dark paid {}; total {}.", paid[0], paid[1], paid[0] + paid[1]);
        }
    }
    line + "\n"
}

fn standing_fr(game: &AnyGame) -> String {
    let name = |s| side_name_in(game, s, Lang::Fr);
    let line = match game.turn() {
        Turn::Over(Some(w)) => format!("Résultat\u{a0}: {} gagne.", name(w)),
        Turn::Over(None) => "Résultat\u{a0}: partie terminée.".into(),
        Turn::Roll(s) => format!("Partie en cours\u{a0}: à {} de jouer\u{a0}; la partie attend un lancer.", name(s)),
        Turn::Decide(s) => format!("Partie en cours\u{a0}: à {} de jouer\u{a0}; la partie attend une décision.", name(s)),
    };
    line + "\n"
}

fn race_waits(phase: Phase) -> &'static str {
    match phase {
        Phase::Roll => "a roll",
        Phase::Declare => "a declaration (move or summon)",
        Phase::Move => "a move",
        Phase::ExtraRoll => "a choice: roll again or end the turn",
        Phase::Over => "nothing",
    }
}

/// A family's name in words.
pub fn family_name(family: crate::Family) -> &'static str {
    match family {
        crate::Family::Race => "race",
        crate::Family::Bens => "marker",
        crate::Family::Tower => "tower",
    }
}

/// The rule set's name, as its booklet or page gives it.
pub fn rule_set_name(game: &AnyGame) -> String {
    match game {
        AnyGame::Race(g) => g.rules().spec.name.clone(),
        _ => crate::family_rule_sets().into_iter().find(|r| r.id == game.rule_id()).map_or(game.rule_id().into(), |r| r.name.into()),
    }
}

/// An open decision as a line of a numbered list.
pub fn label(game: &AnyGame, action: &AnyAction) -> String {
    label_in(game, action, Lang::En)
}

/// [`label`] in a language: every family's move says its piece, from, to
/// and what it does (captures, conversions, prisoners, promotions, an extra
/// roll, the win).
pub fn label_in(game: &AnyGame, action: &AnyAction, lang: Lang) -> String {
    match (game, action, lang) {
        (AnyGame::Race(g), AnyAction::Race(Action::Move(m)), Lang::En) => move_label(g, *m),
        (AnyGame::Race(g), AnyAction::Race(Action::Choose(c)), Lang::En) => choice_label(g, *c),
        (AnyGame::Race(g), AnyAction::Race(Action::Move(m)), Lang::Fr) => move_label_fr(g, *m, &effects(game, action)),
        (AnyGame::Race(g), AnyAction::Race(Action::Choose(c)), Lang::Fr) => choice_label_fr(g, *c),
        _ => family_label(game, action, lang),
    }
}

/// What a decision does, said of the side making it: "plays ...", "rolls again".
pub fn action_line(game: &AnyGame, action: &AnyAction) -> String {
    action_line_in(game, action, Lang::En)
}

/// [`action_line`] in a language.
pub fn action_line_in(game: &AnyGame, action: &AnyAction, lang: Lang) -> String {
    let AnyGame::Race(g) = game else {
        let said = family_label(game, action, lang);
        return match action {
            AnyAction::Tower(crate::tower::TowerAction::Reroll) => lang.pick("throws again", "relance").into(),
            AnyAction::Tower(crate::tower::TowerAction::Move5) => format!("{} {said}", lang.pick("chooses", "choisit")),
            _ => format!("{} {said}", lang.pick("plays", "joue")),
        };
    };
    if lang == Lang::Fr {
        return match action {
            AnyAction::Race(Action::Choose(Choice::Reroll)) => "rejoue".into(),
            AnyAction::Race(Action::Choose(Choice::End)) => "finit son tour".into(),
            AnyAction::Race(Action::Choose(Choice::Move)) => "annonce «\u{a0}déplacer\u{a0}»".into(),
            AnyAction::Race(Action::Choose(Choice::Summon)) => "annonce «\u{a0}appeler\u{a0}»".into(),
            _ => format!("joue {}", label_in(game, action, lang)),
        };
    }
    match action {
        AnyAction::Race(Action::Move(m)) => format!("plays {}", move_label(g, *m)),
        AnyAction::Race(Action::Choose(Choice::Reroll)) => "rolls again".into(),
        AnyAction::Race(Action::Choose(Choice::End)) => "ends the turn".into(),
        AnyAction::Race(Action::Choose(Choice::Move)) => "declares Move".into(),
        AnyAction::Race(Action::Choose(Choice::Summon)) => match g.next_bird() {
            Some(b) => format!("declares Summon for the {} ({b})", bird_name(g.rules(), b)),
            None => "declares Summon".into(),
        },
        other => format!("plays {other}"),
    }
}

/// What a roll showed and did, said of the side that rolled (the game after the roll).
pub fn roll_line(after: &AnyGame, rolled: &Rolled) -> String {
    roll_line_in(after, rolled, Lang::En)
}

/// [`roll_line`] in a language.
pub fn roll_line_in(after: &AnyGame, rolled: &Rolled, lang: Lang) -> String {
    if lang == Lang::Fr {
        return roll_line_fr(after, rolled);
    }
    let name = side_name(after, rolled.player);
    let AnyGame::Race(g) = after else {
        let passes = if rolled.passed { "; no move, the turn passes" } else { "" };
        return format!("{name} rolls {}{passes}", rolled.raw);
    };
    let rules = g.rules();
    let value = rolled.value.unwrap_or(0);
    let mut line = format!("{name} throws {}", dice_text(rules.dice(), rolled.raw));
    match rolled.summon {
        Some(s) if s.stage == SummonStage::Call => {
            let need = rules.call_value(s.bird);
            let result = if s.success { "called! Now a throw to place it" } else { "not this time; the turn ends" };
            line += &format!(", {value}: calling the {} ({}) needs {need}: {result}", bird_name(rules, s.bird), s.bird);
        }
        Some(s) => {
            let bird = bird_name(rules, s.bird);
            line += &format!(", {value}: ");
            line += &if s.success {
                format!("the {bird} enters on {value} ({})", position_name(rules, rolled.player, value))
            } else if value == 0 {
                format!("a 0 places nothing; the {bird} stays in reserve and the turn ends")
            } else {
                format!("square {value} is taken; the {bird} stays in reserve and the turn ends")
            };
        }
        None => {
            if let Some(t) = rules.throw(rolled.raw) {
                line += &format!(": {}", throw_text(&t));
            }
            if rolled.passed {
                line += if value == 0 { "; the turn passes" } else { "; no legal move, the turn passes" };
            }
        }
    }
    line
}

/// The heading of a decision's numbered list.
pub fn heading(game: &AnyGame) -> String {
    heading_in(game, Lang::En)
}

/// [`heading`] in a language.
pub fn heading_in(game: &AnyGame, lang: Lang) -> String {
    let Turn::Decide(side) = game.turn() else { return String::new() };
    if lang == Lang::Fr {
        let name = side_name_in(game, side, lang);
        return match (game, game.as_race().and_then(Game::throw)) {
            (AnyGame::Race(g), Some(t)) if g.phase() == Phase::Move => {
                format!("{name}, vous avez fait {}. Vos coups (positions du parcours, case)\u{a0}:\n", t.value)
            }
            _ => format!("{name}, à vous de choisir\u{a0}:\n"),
        };
    }
    let name = side_name(game, side);
    let AnyGame::Race(g) = game else { return format!("{name}, your decisions:\n") };
    match (g.phase(), g.throw()) {
        (Phase::Move, Some(t)) => format!("{name}, you threw {}. Your moves (path positions, square):\n", t.value),
        (Phase::Declare, _) => format!("{name}, declare before you roll:\n"),
        (Phase::ExtraRoll, _) => format!("{name}, you may roll again:\n"),
        _ => format!("{name}, choose:\n"),
    }
}

/// What a human player is told before the first move.
pub fn intro(game: &AnyGame, humans: &[Side]) -> String {
    let AnyGame::Race(g) = game else {
        return "The dice are thrown for you. Answer each question with the number of a line from the list, \
                or the decision as listed; 'help' for more, 'quit' to stop.\n"
            .into();
    };
    let rules = g.rules();
    let mut out = String::new();
    for &side in humans {
        out += &format!(
            "\nYou play {}. Your pieces start in reserve (position 0) and run along this path, \
             positions 1 to {} (position {} = borne off):\n",
            side_label(rules, side),
            rules.path_len(),
            rules.path_len() + 1
        );
        out += &path_diagram(rules, side);
    }
    out += &board_key(rules);
    out += "The dice are thrown for you. Answer each question with the number of a line from the list; \
            type 'help' for the other input forms, 'path' to see your path again, 'quit' to stop.\n";
    out
}

/// Your path with its position numbers (race rule sets).
pub fn path(game: &AnyGame, side: Side) -> Option<String> {
    match game {
        AnyGame::Race(g) => Some(path_diagram(g.rules(), side)),
        _ => None,
    }
}

/// The input forms, for `help`.
pub fn help(game: &AnyGame, side: Side) -> String {
    let mut out = String::from("What you can type:\n");
    out += "  1, 2, ...       the line with that number from the list\n";
    let AnyGame::Race(g) = game else {
        out += "  FROM TO         a move by its squares, e.g. '3 7' or '3->7', with its word where it has one ('jump 0 4')\n";
        out += "  TEXT            a decision as the list writes it\n";
        out += "  board / list    show the board / the numbered decisions again\n";
        out += "  quit            stop playing (the game is saved if you gave --save)\n";
        return out;
    };
    let rules = g.rules();
    let off = rules.path_len() + 1;
    out += &format!(
        "  FROM TO         a move by path positions, e.g. '4 7'; 'enter 3' (or '0 3') brings a piece onto 3, \
         '{} off' (or '{} {off}') bears one off\n",
        off - 1,
        off - 1
    );
    out += "  enter / off     the move that enters a piece / bears a piece off, when there is only one\n";
    if let Some(b) = &rules.spec.birds {
        out += &format!("  BIRD            move that bird, by name: {}\n", b.names.join(", ").to_lowercase());
        out += "  move / summon   declare before you roll: move a bird on the board, or try to summon the next one\n";
    }
    out += "  reroll / end    take or decline an optional extra roll (also: yes / no)\n";
    out += "  board           show the board again\n";
    out += "  path            show your path with its position numbers\n";
    out += "  list            show the numbered choices again\n";
    out += "  hint            your win chance after each choice (exact with a solved table)\n";
    out += "  quit            stop playing (the game is saved if you gave --save)\n";
    out += &format!(
        "Positions count along your own path: 0 is your reserve, 1..{} the squares ('path' shows where), {off} borne off.\n",
        rules.path_len()
    );
    out += &format!(
        "Squares are named by column letter and row number, a1 at the bottom left; you are {}, whose path starts on {}.\n",
        side_label(rules, side),
        position_name(rules, side, 1)
    );
    out
}

/// Reads a typed decision: the family's own grammar, and for races also
/// `enter`, `off`, a bird's name and the choices' plain words (`yes`, `no`).
///
/// # Errors
/// Nothing open reads so; the message lists what is open.
pub fn read_decision(game: &AnyGame, text: &str) -> Result<AnyAction, String> {
    let text = text.trim().to_lowercase();
    if let AnyGame::Race(g) = game {
        if let Some(found) = race_words(g, &text) {
            return found.map(AnyAction::Race);
        }
    }
    game.action_from_text(&text).map_err(|e| match e {
        PlayError::NotOpen { open, .. } => format!("'{text}' is not understood or not open now; open: {}", open.join(", ")),
        e => e.to_string(),
    })
}

/// A race's own words for decisions, when the text is one of them.
fn race_words(g: &Game, text: &str) -> Option<Result<Action, String>> {
    let choice = match text {
        "reroll" | "roll" | "again" | "yes" | "y" => Some(Choice::Reroll),
        "end" | "stop" | "no" | "n" => Some(Choice::End),
        "move" | "m" => Some(Choice::Move),
        "summon" | "s" => Some(Choice::Summon),
        _ => None,
    };
    if let Some(c) = choice {
        let open = g.choices().contains(&c);
        return Some(if open { Ok(Action::Choose(c)) } else { Err(format!("'{text}' is not open now")) });
    }
    let moves = g.legal_moves();
    if let Some(birds) = &g.rules().spec.birds {
        if let Some(i) = birds.names.iter().position(|b| b.to_lowercase() == text) {
            let found = moves.iter().find(|m| usize::from(m.piece) == i + 1);
            return Some(found.map(|m| Action::Move(*m)).ok_or_else(|| format!("the {} cannot move now", birds.names[i])));
        }
    }
    let off = g.rules().path_len() + 1;
    let found: Vec<&Move> = match text {
        "enter" | "in" => moves.iter().filter(|m| m.from == 0).collect(),
        "off" | "out" => moves.iter().filter(|m| m.to == off).collect(),
        _ => {
            let named = text.replace("enter", "0").replace("off", &off.to_string());
            if named == text {
                return None;
            }
            return Some(read_race_move(g, &named));
        }
    };
    Some(match found[..] {
        [m] => Ok(Action::Move(*m)),
        [] => Err(format!("'{text}' is not a legal move with this throw; legal moves: {}", crate::format_moves(moves))),
        _ => Err(format!("'{text}' fits several moves ({}); give FROM TO or a number", crate::format_moves(moves))),
    })
}

/// `FROM TO` after the words `enter` and `off` became numbers.
fn read_race_move(g: &Game, text: &str) -> Result<Action, String> {
    match AnyGame::Race(g.clone()).action_from_text(text) {
        Ok(AnyAction::Race(a)) => Ok(a),
        Ok(other) => Err(format!("'{other}' is not a race move")),
        Err(e) => Err(e.to_string()),
    }
}

fn move_label(g: &Game, m: Move) -> String {
    let text = move_text(g, m);
    match m.piece {
        0 => text,
        p => format!("{} ({p}): {text}", bird_name(g.rules(), p)),
    }
}

/// A race move in French: `entrée -> 4 (a1) : rosette, rejoue`.
fn move_label_fr(g: &Game, m: Move, effects: &[Effect]) -> String {
    let rules = g.rules();
    let side = g.to_move();
    let off = rules.path_len() + 1;
    let at = |p: u8| {
        if p == 0 {
            "entrée".to_string()
        } else if p >= off {
            "sortie".into()
        } else {
            format!("{p} ({})", position_name(rules, side, p))
        }
    };
    let text = with_effects(format!("{} -> {}", at(m.from), at(m.to)), effects, Lang::Fr);
    match m.piece {
        0 => text,
        p => format!("{} ({p})\u{a0}: {text}", bird_name(rules, p)),
    }
}

fn choice_label_fr(g: &Game, c: Choice) -> String {
    match c {
        Choice::Reroll => "relancer".into(),
        Choice::End => "finir le tour".into(),
        Choice::Move => "annoncer «\u{a0}déplacer\u{a0}»\u{a0}: lancer et déplacer un oiseau déjà sur le plateau".into(),
        Choice::Summon => match g.next_bird() {
            Some(b) => format!(
                "annoncer «\u{a0}appeler\u{a0}»\u{a0}: lancer pour l'oiseau {} ({b}), qui demande {}\u{a0}; s'il vient, relancer pour le placer",
                bird_name(g.rules(), b),
                g.rules().call_value(b)
            ),
            None => "annoncer «\u{a0}appeler\u{a0}»\u{a0}: lancer pour appeler l'oiseau suivant".into(),
        },
    }
}

/// A roll in French: what the dice show, what the throw means, a pass.
fn roll_line_fr(after: &AnyGame, rolled: &Rolled) -> String {
    let name = side_name_in(after, rolled.player, Lang::Fr);
    let AnyGame::Race(g) = after else {
        let passes = if rolled.passed { "\u{a0}; pas de coup, le tour passe" } else { "" };
        return format!("{name} lance {}{passes}", rolled.raw);
    };
    let rules = g.rules();
    let value = rolled.value.unwrap_or(0);
    let shows = match rules.dice() {
        DiceModel::Bin3 | DiceModel::Bin4 => format!("{} pointe{} marquée{}", rolled.raw, plural_s(rolled.raw), plural_s(rolled.raw)),
        DiceModel::D4 | DiceModel::D6 => format!("un {}", rolled.raw),
    };
    let mut line = format!("{name} lance {shows}");
    match rolled.summon {
        Some(s) => {
            let bird = bird_name(rules, s.bird);
            let result = if s.success { "réussi" } else { "raté, le tour finit" };
            line += &format!(", {value}\u{a0}: {bird} ({})\u{a0}: {result}", s.bird);
        }
        None => {
            if let Some(t) = rules.throw(rolled.raw) {
                line += &format!("\u{a0}: {}", throw_text_fr(&t));
            }
            if rolled.passed {
                line += if value == 0 { "\u{a0}; le tour passe" } else { "\u{a0}; aucun coup possible, le tour passe" };
            }
        }
    }
    line
}

fn plural_s(n: u8) -> &'static str {
    if n > 1 {
        "s"
    } else {
        ""
    }
}

fn throw_text_fr(t: &Throw) -> String {
    if t.value == 0 {
        return "pas de déplacement".into();
    }
    let mut s = format!("avance de {}", t.value);
    if !t.enter {
        s += " (ne fait pas entrer de pion)";
    }
    match t.extra {
        Extra::Auto => s += ", puis relance",
        Extra::Optional => s += ", puis peut relancer",
        Extra::None => {}
    }
    s
}

fn choice_label(g: &Game, c: Choice) -> String {
    match c {
        Choice::Reroll => "roll again".into(),
        Choice::End => "end the turn".into(),
        Choice::Move => "declare Move: roll and move a bird already on the board".into(),
        Choice::Summon => match g.next_bird() {
            Some(b) => format!(
                "declare Summon: roll for the {} ({b}), which needs {}; if called, roll again to place it",
                bird_name(g.rules(), b),
                g.rules().call_value(b)
            ),
            None => "declare Summon: roll to call the next bird".into(),
        },
    }
}

/// A bird's name in a named-birds rule set (`bird N` where the file names none).
pub fn bird_name(rules: &Rules, bird: u8) -> String {
    rules.spec.birds.as_ref().and_then(|b| b.names.get(usize::from(bird) - 1)).cloned().unwrap_or_else(|| format!("bird {bird}"))
}

/// What the raw dice show.
fn dice_text(model: DiceModel, raw: u8) -> String {
    match model {
        DiceModel::Bin3 | DiceModel::Bin4 => format!("{raw} marked tip{} up", if raw == 1 { "" } else { "s" }),
        DiceModel::D4 | DiceModel::D6 => format!("a {raw}"),
    }
}

/// What a throw means: the move value and its special effects.
fn throw_text(t: &Throw) -> String {
    if t.value == 0 {
        return "no move".into();
    }
    let mut s = format!("move {}", t.value);
    if !t.enter {
        s += " (cannot enter a piece)";
    }
    match t.extra {
        Extra::Auto => s += ", then roll again",
        Extra::Optional => s += ", then may roll again",
        Extra::None => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Options;

    fn game_after(id: &str, rolls: &[u8]) -> AnyGame {
        let mut g = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        for &r in rolls {
            g.roll(r).unwrap();
        }
        g
    }

    #[test]
    fn race_moves_read_by_positions_and_words() {
        let g = game_after("finkel", &[2]);
        let enter = g.actions()[0].clone();
        for text in ["0 2", "0-2", "0->2", "enter 2", "enter", "ENTER"] {
            assert_eq!(read_decision(&g, text), Ok(enter.clone()), "{text}");
        }
        assert!(read_decision(&g, "3 5").is_err());
        assert!(read_decision(&g, "off").unwrap_err().contains("not a legal move"));
        assert!(read_decision(&g, "reroll").unwrap_err().contains("not open"));
        assert_eq!(label(&game_after("finkel", &[4]), &game_after("finkel", &[4]).actions()[0]), "enter -> 4 (a1): rosette, rolls again");
    }

    #[test]
    fn bird_games_take_declarations_and_names() {
        let g = game_after("v1-named-birds", &[]);
        assert_eq!(read_decision(&g, "summon"), Ok(AnyAction::Race(Action::Choose(Choice::Summon))));
        assert!(read_decision(&g, "move").is_err(), "no bird on the board yet");
        let help = help(&g, Side::Light);
        assert!(help.contains("swallow") && help.contains("summon"), "{help}");
        assert!(label(&g, &AnyAction::Race(Action::Choose(Choice::Summon))).contains("Swallow"));
    }

    #[test]
    fn every_family_is_told_in_words() {
        for id in ["finkel", "bens-ur", "ludens-akalandung", "guard-d6"] {
            let mut g = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
            assert!(!intro(&g, &[Side::Light]).is_empty() && !help(&g, Side::Light).is_empty());
            for k in 0.. {
                if matches!(g.turn(), Turn::Decide(_)) {
                    break;
                }
                assert!(k < 100, "{id}: no decision after 100 rolls");
                let outcomes = g.outcomes();
                let raw = outcomes[(k + 1) % outcomes.len()].0;
                let rolled = crate::report::roll(&mut g, raw).unwrap();
                assert!(roll_line(&g, &rolled).contains(&side_name(&g, rolled.player)), "{id}");
            }
            assert!(!heading(&g).is_empty(), "{id}");
            for a in g.actions() {
                assert!(!label(&g, &a).is_empty() && action_line(&g, &a).len() > 5, "{id}");
            }
        }
    }
}
