//! RGN: every game RoyalUr-Java wrote (tests/peers/royalur-java-rgn)
//! imports, replays to the end its summary gives and exports to the same
//! text; games of every rule set go to RGN and back unchanged; bad text
//! gives errors that name the place.

use std::collections::BTreeSet;
use std::path::PathBuf;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{
    family_rule_sets, spec::BUILTIN, Action, AnyRecorder, Game, GameRecord, Options, Phase, Playable, Rules, SeededDice, Side, Turn,
};
use ur_session::records::{self, SavedGame};
use ur_session::rgn::{self, RgnError};

fn peer_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/royalur-java-rgn")
}

/// The peer files: file stem and the RoyalUr rule-set name of its games.
const FILES: [(&str, &str); 6] = [
    ("rgn-finkel", "Finkel"),
    ("rgn-finkel-2p", "Finkel with Two Pieces"),
    ("rgn-masters", "Masters"),
    ("rgn-masters-four-dice", "Masters with Four Dice"),
    ("rgn-blitz", "Blitz"),
    ("rgn-aseb", "Aseb"),
];

/// One row of a summary TSV.
struct Summary {
    status: String,
    winner: Option<Side>,
    rolls: usize,
    moves: usize,
    unplayed: [u8; 2],
    score: [u8; 2],
    roll_values: Vec<u8>,
}

fn summaries(stem: &str) -> Vec<Summary> {
    let text = std::fs::read_to_string(peer_dir().join(format!("{stem}.summary.tsv"))).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| f[i].parse::<usize>().unwrap();
            Summary {
                status: f[2].to_owned(),
                winner: match f[3] {
                    "LIGHT" => Some(Side::Light),
                    "DARK" => Some(Side::Dark),
                    _ => None,
                },
                rolls: n(5),
                moves: n(6),
                unplayed: [n(7) as u8, n(9) as u8],
                score: [n(8) as u8, n(10) as u8],
                roll_values: f.get(11).filter(|v| !v.is_empty()).map_or(Vec::new(), |v| v.split(',').map(|x| x.parse().unwrap()).collect()),
            }
        })
        .collect()
}

/// The peer file's games, each exactly as the encoder wrote it.
fn peer_texts(stem: &str) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(peer_dir().join(format!("{stem}.txt"))).unwrap();
    let games = text.strip_suffix('\n').unwrap().split("\n\n---\n\n").map(str::to_owned).collect();
    (text, games)
}

/// Tags as a set, and the move text.
fn split_text(text: &str) -> (BTreeSet<String>, String) {
    let tags = text.lines().take_while(|l| l.starts_with('[')).map(str::to_owned).collect::<BTreeSet<_>>();
    let moves = if tags.is_empty() { text.to_owned() } else { text.split_once("\n\n").map_or(String::new(), |(_, m)| m.to_owned()) };
    (tags, moves)
}

fn check_summary(stem: &str, index: usize, record: &GameRecord, want: &Summary) {
    let game = record.replay().unwrap_or_else(|e| panic!("{stem} game {index}: {e}"));
    let rules = game.rules().clone();
    let rolls: Vec<u8> =
        record.actions.iter().filter_map(|a| if let Action::Roll(r) = a { Some(rules.throw(*r).unwrap().value) } else { None }).collect();
    let moves = record.actions.iter().filter(|a| matches!(a, Action::Move(_))).count();
    let at = format!("{stem} game {index}");
    assert_eq!(game.winner(), want.winner, "{at}: winner");
    assert_eq!(rolls.len(), want.rolls, "{at}: rolls");
    assert_eq!(moves, want.moves, "{at}: moves");
    assert_eq!(rolls, want.roll_values, "{at}: roll values");
    for side in Side::BOTH {
        assert_eq!(game.state().reserve(side), want.unplayed[side.index()], "{at}: {side} unplayed");
        assert_eq!(game.state().off(side), want.score[side.index()], "{at}: {side} score");
    }
    let phase = game.phase();
    let status_ok = match want.status.as_str() {
        "finished" => phase == Phase::Over,
        "unfinished-empty" => record.actions.is_empty() && phase == Phase::Roll,
        "unfinished-waiting-for-roll" => phase == Phase::Roll,
        "unfinished-waiting-for-move" => phase == Phase::Move,
        other => panic!("{at}: unknown status {other}"),
    };
    assert!(status_ok, "{at}: status {} but the game waits in {phase:?}", want.status);
}

#[test]
fn every_peer_game_imports_replays_and_exports_as_royalur_writes_it() {
    let mut checked = 0;
    for (stem, preset) in FILES {
        let (whole, texts) = peer_texts(stem);
        let parsed = rgn::parse_games(&whole).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let want = summaries(stem);
        assert_eq!((parsed.len(), texts.len(), want.len()), (40, 40, 40), "{stem}");
        let mut exported = Vec::new();
        for (index, (game, text)) in parsed.iter().zip(&texts).enumerate() {
            let at = format!("{stem} game {index}");
            let saved = rgn::game_to_record(game, Some(preset)).unwrap_or_else(|e| panic!("{at}: {e}"));
            let SavedGame::Race(record) = &saved else { panic!("{at}: not a race record") };
            check_summary(stem, index, record, &want[index]);
            let ours = rgn::write_game(&saved, Some(preset)).unwrap_or_else(|e| panic!("{at}: {e}"));
            let (want_tags, want_moves) = split_text(text);
            let (tags, moves) = split_text(&ours);
            assert_eq!(tags, want_tags, "{at}: tags");
            assert_eq!(moves, *want_moves, "{at}: move text");
            // RoyalUr puts Rules first; we keep the other tags in their order, so the text is the same.
            assert_eq!(ours, *text, "{at}: text");
            exported.push(ours);
            checked += 1;
        }
        assert_eq!(rgn::format_games(&exported), whole, "{stem}: the whole file");
    }
    assert_eq!(checked, 240);
}

#[test]
fn a_peer_game_keeps_its_tags_through_json() {
    let (_, texts) = peer_texts("rgn-finkel-2p");
    let saved = rgn::read_games(&texts[31], None).unwrap().remove(0);
    let json = serde_json::to_string(&saved).unwrap();
    assert!(json.contains(r#"["Light","RandomAgent"]"#), "{json}");
    let back = records::read_game("g.json", &json).unwrap();
    assert_eq!(back, saved);
    assert_eq!(rgn::write_game(&back, None).unwrap(), texts[31]);
    let event = texts.iter().find(|t| t.contains("[Event ")).expect("a game with an Event tag");
    let saved = rgn::read_games(event, None).unwrap().remove(0);
    let value = &saved_tags(&saved).iter().find(|(k, _)| k == "Event").unwrap().1;
    assert!(value.contains('"') && value.contains('\\') && value.contains('\n'), "{value:?}");
    assert_eq!(&rgn::write_game(&saved, None).unwrap(), event);
}

fn saved_tags(saved: &SavedGame) -> &Vec<(String, String)> {
    match saved {
        SavedGame::Race(r) => &r.tags,
        SavedGame::Family(r) => &r.tags,
    }
}

#[test]
fn masters_rolls_of_four_are_raw_zero_and_rgn_values() {
    let text = "[Rules Masters]\n\n1. A@A1 * A1B1 / C@C2\n2. 4 --";
    let saved = rgn::read_games(text, None).unwrap().remove(0);
    let SavedGame::Race(r) = &saved else { panic!() };
    assert_eq!(r.actions[0], Action::Roll(0), "a Masters 4 is three blank dice");
    assert_eq!(r.actions[2], Action::Roll(1));
    assert_eq!(r.actions[4], Action::Roll(3));
    assert_eq!(r.actions.last(), Some(&Action::Roll(0)), "a 4 waiting for its move");
    assert_eq!(rgn::write_game(&saved, None).unwrap(), text);
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

fn error(text: &str) -> RgnError {
    rgn::read_games(text, None).expect_err(text)
}

#[test]
fn bad_text_is_refused_with_its_place_and_the_fix() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("[Rules Finkel\n\n1. A@A4", 1, 1, "end with ]"),
        ("[Rules \"Finkel]\n", 1, 8, "no closing quote"),
        ("[Event \"a\\qb\"]\n", 1, 10, "unknown escape"),
        ("[Rules Finkle]\n\n1. A@A4", 1, 0, "unknown Rules 'Finkle'"),
        ("[Rules Finkel]\n\nA@A4", 3, 1, "turn marker"),
        ("[Rules Finkel]\n\n1. 3 A@A3", 3, 4, "followed by `--`"),
        ("[Rules Finkel]\n\n1. A@A4 / C@C9", 3, 11, "no roll makes 'C@C9'"),
        ("[Rules Finkel]\n\n1. A@A4 C@C4", 3, 9, "it is dark's turn"),
        ("[Rules Finkel]\n\n1. A@A4 *", 3, 4, "rosette (*)"),
        ("[Rules Finkel]\n\n1. A@A4x", 3, 4, "captures nothing"),
        ("[Rules Finkel]\n\n1. A@A4#", 3, 4, "not over"),
        ("[Rules Finkel]\n\n1. A@A4# / C@C4", 3, 10, "after the end mark"),
        ("[Rules Finkel]\n\n1. 9 --", 3, 4, "no throw moves 9"),
        ("[UrRules nonesuch]\n", 1, 0, "unknown rule set 'nonesuch'"),
        ("[Rules Finkel]\n[Rules Finkel]\n", 2, 0, "given twice"),
        ("[UrRules finkel]\n[UrFirst blue]\n", 2, 0, "light or dark"),
    ];
    for (text, line, column, says) in cases {
        let e = error(text);
        assert_eq!((e.line, e.column), (*line, *column), "{text:?}: {e}");
        assert!(e.to_string().contains(says), "{text:?}: {e}");
    }
}

#[test]
fn parse_games_never_panics_on_mangled_peer_text() {
    let (whole, _) = peer_texts("rgn-masters");
    let bytes = whole.as_bytes();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    for _ in 0..300 {
        let mut text = bytes[..rng.gen_range(0..2000)].to_vec();
        for _ in 0..rng.gen_range(0..8) {
            if text.is_empty() {
                break;
            }
            let i = rng.gen_range(0..text.len());
            let alphabet = b"[]\"\\#*/-.:x 0123456789ABC@+\n";
            text[i] = alphabet[rng.gen_range(0..alphabet.len())];
        }
        let text = String::from_utf8_lossy(&text);
        if let Ok(games) = rgn::parse_games(&text) {
            for g in &games {
                let _ = rgn::game_to_record(g, Some("Masters"));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Round trips on every rule set
// ---------------------------------------------------------------------------

/// Every built-in rule set: the races, then the marker and tower games.
fn all_rule_sets() -> Vec<String> {
    let mut ids: Vec<String> = BUILTIN.iter().map(|(id, _)| (*id).to_owned()).collect();
    ids.extend(family_rule_sets().into_iter().map(|r| r.id.to_owned()));
    ids
}

#[test]
fn there_are_seventeen_rule_sets() {
    assert_eq!(all_rule_sets().len(), 17);
}

/// A random game of a rule set cut after `max` steps: a version 1 race
/// record, or a version 2 record of any family.
fn random_game(id: &str, seed: u64, max: usize, first: Side, version2: bool, tags: Vec<(String, String)>) -> SavedGame {
    let race = BUILTIN.iter().any(|(b, _)| *b == id);
    if race && !version2 {
        let mut game = Game::new(Rules::builtin(id).unwrap().into(), first);
        game.play_random(&mut SeededDice::new(seed), max);
        let mut record = GameRecord::of(&game, None);
        record.tags = tags;
        return SavedGame::Race(record);
    }
    let mut rec = AnyRecorder::new(id, &Options::new(), first).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..max {
        match rec.game().turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => {
                let outcomes = rec.game().outcomes();
                rec.roll(outcomes[rng.gen_range(0..outcomes.len())].0).unwrap();
            }
            Turn::Decide(_) => {
                let actions = rec.game().actions();
                rec.apply(&actions[rng.gen_range(0..actions.len())]).unwrap();
            }
        }
    }
    let mut record = rec.record();
    record.tags = tags;
    SavedGame::Family(record)
}

fn tag_strategy() -> impl Strategy<Value = Vec<(String, String)>> {
    let key = "[A-Z][A-Za-z0-9_]{0,8}".prop_filter("not one of our tags", |k| !rgn::OWN_TAGS.contains(&k.as_str()));
    let value = prop_oneof!["[A-Za-z][A-Za-z0-9_.-]{0,10}", "[ -~]{0,12}", "[\"\\\\\n\r a-z\u{e9}\u{1f3b2}\\]\\[]{0,8}"];
    proptest::collection::vec((key, value), 0..4)
}

fn round_trip(saved: &SavedGame) {
    let text = rgn::write_game(saved, None).unwrap_or_else(|e| panic!("{e}\n{saved:?}"));
    let back = rgn::read_games(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.len(), 1, "{text}");
    assert_eq!(&back[0], saved, "{text}");
    assert_eq!(rgn::write_game(&back[0], None).unwrap(), text);
    let json = serde_json::to_string(saved).unwrap();
    assert_eq!(&records::read_game("g.json", &json).unwrap(), saved, "{json}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn games_of_every_rule_set_go_to_rgn_and_back(
        seed in any::<u64>(),
        max in prop_oneof![0usize..40, 40usize..400, Just(100_000usize)],
        dark_first in any::<bool>(),
        version2 in any::<bool>(),
        tags in tag_strategy(),
    ) {
        let first = if dark_first { Side::Dark } else { Side::Light };
        for id in all_rule_sets() {
            round_trip(&random_game(&id, seed, max, first, version2, tags.clone()));
        }
    }

    #[test]
    fn race_games_with_options_and_start_positions_go_to_rgn_and_back(seed in any::<u64>(), max in 0usize..300, pieces in 1i64..=5) {
        for id in ["finkel", "masters", "v1-named-birds", "regency-bell", "regency-murray", "ludens-planet"] {
            let options = Options::from([("pieces".to_owned(), ur_rules::OptionValue::Int(pieces))]);
            let rules = Rules::builtin_with(id, &options).unwrap();
            let mut game = Game::new(rules.into(), Side::Light);
            let mut dice = SeededDice::new(seed);
            game.play_random(&mut dice, max / 2);
            // Go on from where it stands as a new game with a start position.
            let mut from_here = Game::from_state(game.rules().clone(), *game.state());
            from_here.play_random(&mut dice, max / 2);
            round_trip(&SavedGame::Race(GameRecord::of(&from_here, None)));
        }
    }
}

#[test]
fn a_rule_set_file_travels_in_the_rgn() {
    let text = BUILTIN[0].1.replace("id = \"finkel\"", "id = \"my-finkel\"").replace("pieces = 7", "pieces = 3");
    let file = ur_rules::RuleSetFile::parse(&text).unwrap();
    let rules = Rules::from_file(&file, &Options::new()).unwrap();
    let mut game = Game::new(rules.into(), Side::Light);
    game.play_random(&mut SeededDice::new(5), 10_000);
    round_trip(&SavedGame::Race(GameRecord::of(&game, Some(text))));
}

#[test]
fn a_game_without_tags_reads_under_the_rules_given() {
    let saved = random_game("masters", 9, 100_000, Side::Light, false, Vec::new());
    let text = rgn::write_game(&saved, Some("masters")).unwrap();
    assert!(!text.starts_with('['), "no tags under the reader's own rules: {text}");
    assert_eq!(rgn::read_games(&text, Some("Masters")).unwrap(), vec![saved.clone()]);
    assert!(rgn::write_game(&saved, None).unwrap().starts_with("[Rules Masters]\n\n"));
    let e = rgn::read_games(&text, Some("Finkel")).unwrap_err();
    assert!(e.line > 0, "{e}");
}
