//! The move texts of every family, in English and French: seeded games of
//! each rule set, where every decision's label is checked against what the
//! decision does to the position (captures, conversions, prisoners,
//! promotions, the win).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::narrate::{self, Effect, Lang};
use ur_rules::{effects::effects, AnyAction, AnyGame, Options, Playable, Side, Turn};

/// One game, seeded; `each` sees every decision before it is played.
fn play(id: &str, seed: u64, mut each: impl FnMut(&AnyGame, &AnyAction)) -> AnyGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut g = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
    for _ in 0..20_000 {
        match g.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => {
                g.roll_with(&mut rng).unwrap();
            }
            Turn::Decide(_) => {
                let actions = g.actions();
                // Capturing moves first, so the games see every effect soon.
                let pick = actions.iter().find(|a| g.captures(a) && rng.gen_bool(0.8)).cloned();
                let a = pick.unwrap_or_else(|| actions[rng.gen_range(0..actions.len())].clone());
                each(&g, &a);
                g.apply(&a).unwrap();
            }
        }
    }
    g
}

/// Each effect with the words its labels must carry in English and French.
const SAID: &[(&str, &str, &str)] = &[
    ("captures", "captures", "prend"),
    ("converts", "converts the marker to dotted", "le marqueur devient pointé"),
    ("takes_prisoners", "prisoner", "prisonnier"),
    ("frees", "frees", "libère"),
    ("eliminates", "eliminates", "élimine"),
    ("promotes", "promoted", "promu"),
    ("rolls_again", "rolls again", "rejoue"),
    ("wins", "wins the game", "gagne la partie"),
    ("forms_twins", "forms the Twins", "forme les Jumeaux"),
];

fn effect_name(e: &Effect) -> String {
    serde_json::to_value(e).unwrap()["effect"].as_str().unwrap().to_string()
}

/// Which effects a rule set's games must show, at least once over the seeds.
const SEEN: &[(&str, &[&str])] = &[
    ("bens-ur", &["captures", "converts", "rolls_again", "wins"]),
    ("ludens-akalandung", &["captures", "wins"]),
    ("ravensburg-1977", &["takes_prisoners", "eliminates", "promotes", "wins"]),
    ("vizier-4-pyramids", &["takes_prisoners", "eliminates", "promotes", "wins"]),
    ("guard-d6", &["takes_prisoners", "promotes", "wins"]),
    ("finkel", &["captures", "rolls_again", "wins"]),
];

#[test]
fn every_effect_is_said_in_both_languages() {
    for (id, expected) in SEEN {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..6 {
            play(id, seed, |g, a| {
                let (en, fr) = (narrate::label_in(g, a, Lang::En), narrate::label_in(g, a, Lang::Fr));
                for e in effects(g, a) {
                    let name = effect_name(&e);
                    let (_, en_word, fr_word) = SAID.iter().find(|s| s.0 == name).copied().unwrap_or(("", "", ""));
                    assert!(en.contains(en_word), "{id}: {name} not said in '{en}'");
                    assert!(fr.contains(fr_word), "{id}: {name} not said in '{fr}'");
                    seen.insert(name);
                }
                if g.captures(a) {
                    let said = ["captures", "prisoner"].iter().any(|w| en.contains(w));
                    assert!(said, "{id}: a capture not said in '{en}'");
                }
            });
        }
        for e in *expected {
            assert!(seen.contains(*e), "{id}: no {e} in six games (seen {seen:?})");
        }
    }
}

#[test]
fn the_last_move_of_every_family_wins_the_game() {
    for id in ["bens-ur", "ludens-akalandung", "ravensburg-1977", "vizier-4-pyramids", "guard-d6", "finkel", "aseb"] {
        for seed in 0..3 {
            let mut last = None;
            let end = play(id, seed, |g, a| last = Some((narrate::label_in(g, a, Lang::En), narrate::action_line_in(g, a, Lang::Fr))));
            let Some(winner) = end.winner() else { continue };
            let (en, fr) = last.unwrap();
            assert!(en.ends_with("wins the game"), "{id} seed {seed}: last move '{en}' ({winner:?} won)");
            assert!(fr.contains("gagne la partie"), "{id} seed {seed}: '{fr}'");
        }
    }
}

#[test]
fn marker_and_tower_moves_name_their_squares_not_their_machine_text() {
    let mut labels = Vec::new();
    for id in ["bens-ur", "ravensburg-1977", "vizier-4-pyramids"] {
        play(id, 7, |g, a| labels.push((id, a.to_string(), narrate::label_in(g, a, Lang::En), narrate::label_in(g, a, Lang::Fr))));
    }
    for (id, machine, en, fr) in &labels {
        assert!(!en.contains("move5") && !fr.contains("move5"), "{id}: {en}");
        assert!(!en.contains(" +") && !en.contains("->0"), "{id}: '{machine}' said as '{en}'");
        if machine.starts_with("0->") {
            assert!(en.starts_with("enter ->") && fr.starts_with("entrée ->"), "{id}: '{en}' / '{fr}'");
        }
    }
    let tower: Vec<_> = labels.iter().filter(|l| l.0 == "ravensburg-1977" && l.1.contains('+')).collect();
    assert!(tower.iter().all(|l| l.2.contains("carrying") && l.3.contains("emmène")), "{tower:?}");
    assert!(labels.iter().any(|l| l.1 == "move5" && l.2 == "move 5" && l.3 == "avancer de 5"));
}

#[test]
fn the_terminal_lines_speak_french() {
    play("bens-ur", 3, |g, a| {
        let line = narrate::action_line_in(g, a, Lang::Fr);
        assert!(line.starts_with("joue ") && !line.contains("plays") && !line.contains("captures"), "{line}");
    });
    let g = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
    assert!(narrate::standing_line_in(&g, Lang::Fr).contains("la partie attend un lancer"));
    let bens = AnyGame::new("bens-ur", &Options::new(), Side::Light).unwrap();
    assert_eq!(narrate::side_name_in(&bens, Side::Light, Lang::Fr), "Noir");
    assert_eq!(narrate::side_name_in(&bens, Side::Dark, Lang::En), "White");
    assert_eq!(Lang::parse("fr"), Some(Lang::Fr));
    assert_eq!(Lang::parse("English"), Some(Lang::En));
    assert_eq!(Lang::parse("de"), None);
}
