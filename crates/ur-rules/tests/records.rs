//! Game records: JSON round trips over every built-in rule set and option
//! combination, clear errors for corrupt records, and a little fuzzing.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use ur_rules::spec::BUILTIN;
use ur_rules::{
    Action, Game, GameError, GameRecord, Move, OptionValue, Options, Phase, RecordError, RuleSetFile, Rules, SeededDice, Side, SpecError,
};

const MAX_ACTIONS: usize = 100_000;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Every combination of option values for a built-in rule set (value options:
/// every value; numeric options: bounds and default), with `pieces` 1..=7,
/// that compiles.
fn playable(id: &str) -> Vec<Arc<Rules>> {
    // Refusals (six birds, an Eagle call a d4 cannot throw) are the
    // properties tests' business; here only playable rules matter.
    let combos = RuleSetFile::builtin(id).expect("built-in id").option_combinations(7);
    combos.into_iter().filter_map(|o| Rules::builtin_with(id, &o).ok().map(Arc::new)).collect()
}

/// A random game, stopped after `stop` actions (or at its end).
fn random_game(rules: &Arc<Rules>, seed: u64, stop: usize) -> Game {
    let first = if seed & 1 == 0 { Side::Light } else { Side::Dark };
    let mut game = Game::new(rules.clone(), first);
    game.play_random(&mut SeededDice::new(seed), stop);
    game
}

/// A game that starts from the position a random game reached after
/// `skip` actions (at the start of a turn), then plays on for `stop` actions.
fn random_game_from_midgame(rules: &Arc<Rules>, seed: u64, skip: usize, stop: usize) -> Game {
    let mut lead_in = random_game(rules, seed ^ 0x5555, 0);
    let mut dice = SeededDice::new(seed ^ 0x5555);
    for _ in 0..skip {
        if lead_in.phase() == Phase::Over {
            break;
        }
        lead_in.play_random(&mut dice, 1);
    }
    // Finish the turn, so that the position is at the start of one.
    while !matches!(lead_in.phase(), Phase::Roll | Phase::Declare | Phase::Over) {
        lead_in.play_random(&mut dice, 1);
    }
    let mut game = Game::from_state(rules.clone(), *lead_in.state());
    game.play_random(&mut SeededDice::new(seed), stop);
    game
}

/// A finished game's record.
fn finished_record(id: &str, seed: u64) -> GameRecord {
    let rules = Arc::new(Rules::builtin(id).unwrap());
    let game = random_game(&rules, seed, MAX_ACTIONS);
    assert!(game.winner().is_some(), "{id} seed {seed} did not end");
    GameRecord::of(&game, None)
}

fn config(cases: u32) -> Config {
    Config { cases, failure_persistence: None, max_shrink_iters: 64, ..Config::default() }
}

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

/// Everything a replay must reproduce.
fn same_game(a: &Game, b: &Game) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.state(), b.state());
    prop_assert_eq!(a.winner(), b.winner());
    prop_assert_eq!(a.phase(), b.phase());
    prop_assert_eq!(a.to_move(), b.to_move());
    prop_assert_eq!(a.first(), b.first());
    prop_assert_eq!(a.start_state(), b.start_state());
    prop_assert_eq!(a.throw(), b.throw());
    prop_assert_eq!(a.legal_moves(), b.legal_moves());
    prop_assert_eq!(a.history(), b.history());
    prop_assert_eq!(a.pot_paid(), b.pot_paid());
    prop_assert_eq!(a.choices(), b.choices());
    Ok(())
}

/// Every action of `record` that is a move, by index, with the legal moves
/// at that point, found by replaying.
fn moves_with_legal(record: &GameRecord) -> Vec<(usize, Vec<Move>)> {
    let mut game = Game::new(Arc::new(record.load_rules().unwrap()), record.first);
    let mut out = Vec::new();
    for (i, &a) in record.actions.iter().enumerate() {
        if game.phase() == Phase::Move {
            out.push((i, game.legal_moves().to_vec()));
        }
        game.apply(a).unwrap();
    }
    out
}

// ---------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------

#[test]
fn records_round_trip_through_json_for_every_rule_set_and_option() {
    for &(id, _) in BUILTIN {
        let all = playable(id);
        assert!(!all.is_empty(), "{id}");
        let mut runner = TestRunner::new(config(64));
        let strategy = (
            0..all.len(),
            any::<u64>(),
            prop_oneof![3 => Just(MAX_ACTIONS), 1 => 0..400usize],
            prop_oneof![3 => Just(None), 1 => (0..300usize).prop_map(Some)],
        );
        let result = runner.run(&strategy, |(ci, seed, stop, skip)| {
            let rules = &all[ci];
            let game = match skip {
                None => random_game(rules, seed, stop),
                Some(skip) => random_game_from_midgame(rules, seed, skip, stop),
            };
            if stop == MAX_ACTIONS {
                prop_assert!(game.winner().is_some(), "no winner");
            }
            let record = GameRecord::of(&game, None);
            prop_assert_eq!(record.version, ur_rules::record::RECORD_VERSION);
            prop_assert_eq!(&record.rules, id);
            prop_assert_eq!(&record.options, &rules.options);
            prop_assert_eq!(record.winner, game.winner());
            let usual = *game.start_state() == ur_rules::State::start(rules, game.first());
            prop_assert_eq!(record.start.is_none(), usual, "a start position is recorded when unusual");
            if let Some(start) = &record.start {
                prop_assert_eq!(rules.validate(start), Ok(*game.start_state()));
            }
            let json = serde_json::to_string(&record).map_err(|e| fail(e.to_string()))?;
            let parsed: GameRecord = serde_json::from_str(&json).map_err(|e| fail(format!("{e}: {json}")))?;
            prop_assert_eq!(&parsed, &record);
            let replayed = parsed.replay().map_err(|e| fail(format!("replay: {e}")))?;
            same_game(&replayed, &game)?;
            let again = serde_json::to_string(&GameRecord::of(&replayed, None)).map_err(|e| fail(e.to_string()))?;
            prop_assert_eq!(&again, &json, "second round trip");
            // Pretty-printed JSON reads back the same.
            let pretty = serde_json::to_string_pretty(&record).map_err(|e| fail(e.to_string()))?;
            let parsed: GameRecord = serde_json::from_str(&pretty).map_err(|e| fail(e.to_string()))?;
            prop_assert_eq!(&parsed, &record);
            Ok(())
        });
        if let Err(e) = result {
            panic!("{id}: {e}");
        }
    }
}

#[test]
fn a_record_with_an_embedded_rules_file_round_trips() {
    for &(id, text) in BUILTIN {
        let rules = Arc::new(Rules::from_file(&RuleSetFile::parse(text).unwrap(), &Options::new()).unwrap());
        let game = random_game(&rules, 7, MAX_ACTIONS);
        let record = GameRecord::of(&game, Some(text.to_owned()));
        let json = serde_json::to_string(&record).unwrap();
        let parsed: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(parsed, record);
        let replayed = parsed.replay().unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(replayed.state(), game.state(), "{id}");
        assert_eq!(replayed.winner(), game.winner(), "{id}");
        // The embedded file wins over the id.
        let mut renamed = record.clone();
        renamed.rules = "not-a-builtin".into();
        assert!(renamed.replay().is_ok(), "{id}");
    }
}

#[test]
fn records_omit_defaults_only_where_the_format_allows() {
    let record = finished_record("finkel", 3);
    let json: serde_json::Value = serde_json::to_value(&record).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["rules"], "finkel");
    assert_eq!(json["options"]["pieces"], 7);
    assert!(json.get("rules_file").is_none(), "no rules_file for a built-in rule set");
    // Options may be left out: the defaults apply.
    let mut sparse = record.clone();
    sparse.options.clear();
    assert_eq!(sparse.replay().unwrap().state(), record.replay().unwrap().state());
    // A missing winner field means no winner.
    let mut obj = json.as_object().unwrap().clone();
    obj.remove("winner");
    let parsed: GameRecord = serde_json::from_value(serde_json::Value::Object(obj)).unwrap();
    assert_eq!(parsed.winner, None);
    assert!(matches!(parsed.replay(), Err(RecordError::Winner { recorded: None, .. })));
}

// ---------------------------------------------------------------------------
// Corrupt records
// ---------------------------------------------------------------------------

#[test]
fn truncated_json_is_a_serde_eof_error() {
    let rules = Arc::new(Rules::builtin_with("finkel", &[("pieces".to_owned(), OptionValue::Int(2))].into()).unwrap());
    let game = random_game(&rules, 11, MAX_ACTIONS);
    let json = serde_json::to_string(&GameRecord::of(&game, None)).unwrap();
    for end in 0..json.len() {
        let e = serde_json::from_str::<GameRecord>(&json[..end]).unwrap_err();
        assert!(e.is_eof(), "prefix of {end} bytes: {e}");
        assert!(!e.to_string().is_empty());
    }
    assert!(serde_json::from_str::<GameRecord>(&json).is_ok());
}

#[test]
fn malformed_fields_are_serde_errors_naming_the_problem() {
    let record = finished_record("finkel", 5);
    let json = serde_json::to_value(&record).unwrap();
    let with = |key: &str, value: serde_json::Value| {
        let mut obj = json.as_object().unwrap().clone();
        obj.insert(key.into(), value);
        serde_json::from_value::<GameRecord>(serde_json::Value::Object(obj)).unwrap_err().to_string()
    };
    let e = with("colour", "red".into());
    assert!(e.contains("colour"), "{e}");
    let e = with("first", "green".into());
    assert!(e.contains("green"), "{e}");
    let e = with("version", (-1).into());
    assert!(e.contains("-1"), "{e}");
    let e = with("actions", serde_json::json!([{ "jump": 3 }]));
    assert!(e.contains("jump"), "{e}");
    let e = with("actions", serde_json::json!([{ "roll": 300 }]));
    assert!(e.contains("300"), "{e}");
    let e = with("actions", serde_json::json!([{ "move": { "from": 0 } }]));
    assert!(e.contains("to"), "{e}");
    let e = with("actions", serde_json::json!([{ "choose": "dance" }]));
    assert!(e.contains("dance"), "{e}");
    let mut obj = json.as_object().unwrap().clone();
    obj.remove("actions");
    let e = serde_json::from_value::<GameRecord>(serde_json::Value::Object(obj)).unwrap_err().to_string();
    assert!(e.contains("actions"), "{e}");
}

#[test]
fn wrong_version_is_refused() {
    let mut record = finished_record("finkel", 1);
    for v in [0, 2, u32::MAX] {
        record.version = v;
        let e = record.replay().unwrap_err();
        assert_eq!(e, RecordError::Version(v));
        assert!(e.to_string().contains(&format!("version {v}")), "{e}");
    }
}

#[test]
fn unknown_rule_set_is_refused() {
    let mut record = finished_record("finkel", 1);
    record.rules = "finkle".into();
    let e = record.replay().unwrap_err();
    assert_eq!(e, RecordError::Rules(SpecError::UnknownRuleSet("finkle".into())));
    assert!(e.to_string().contains("finkle"), "{e}");
}

#[test]
fn unknown_option_and_bad_option_values_are_refused() {
    let record = finished_record("v1-simple", 1);
    let mut r = record.clone();
    r.options.insert("colour".into(), OptionValue::Text("red".into()));
    let e = r.replay().unwrap_err();
    assert!(matches!(&e, RecordError::Rules(SpecError::UnknownOption { option, .. }) if option == "colour"), "{e:?}");
    assert!(e.to_string().contains("colour"), "{e}");

    let mut r = record.clone();
    r.options.insert("dice".into(), OptionValue::Text("D8".into()));
    let e = r.replay().unwrap_err();
    assert!(matches!(&e, RecordError::Rules(SpecError::BadOptionValue { option, .. }) if option == "dice"), "{e:?}");
    assert!(e.to_string().contains("D8"), "{e}");

    let mut r = record;
    r.options.insert("pieces".into(), OptionValue::Int(99));
    let e = r.replay().unwrap_err();
    assert!(matches!(&e, RecordError::Rules(SpecError::BadOptionValue { option, .. }) if option == "pieces"), "{e:?}");
}

#[test]
fn an_illegal_move_names_its_action_index() {
    for &(id, _) in BUILTIN {
        let record = finished_record(id, 21);
        let moves = moves_with_legal(&record);
        assert!(!moves.is_empty(), "{id}");
        for &(i, ref legal) in moves.iter().step_by(moves.len() / 5 + 1) {
            // Replace the move with one that is not legal.
            let bad = (0..=30u8)
                .flat_map(|f| (0..=31u8).map(move |t| Move::new(f, t)))
                .find(|m| !legal.iter().any(|l| l.from == m.from && l.to == m.to))
                .unwrap();
            let mut r = record.clone();
            r.actions[i] = Action::Move(bad);
            let e = r.replay().unwrap_err();
            match &e {
                RecordError::Illegal { index, error: GameError::IllegalMove { from, to, .. }, .. } => {
                    assert_eq!((*index, *from, *to), (i, bad.from, bad.to), "{id}");
                }
                other => panic!("{id}: {other:?}"),
            }
            let text = e.to_string();
            assert!(text.contains(&format!("action {i}")), "{id}: {text}");
            assert!(text.contains(&format!("{}->{}", bad.from, bad.to)), "{id}: {text}");

            // Insert a move where a roll is awaited (right after the move).
            let mut r = record.clone();
            r.actions.insert(i + 1, Action::Move(move_of(record.actions[i])));
            let e = r.replay().unwrap_err();
            assert!(
                matches!(&e, RecordError::Illegal { index, error: GameError::WrongPhase { .. } | GameError::IllegalMove { .. } | GameError::Over, .. } if *index == i + 1),
                "{id}: {e:?}"
            );
            assert!(e.to_string().contains(&format!("action {}", i + 1)), "{id}: {e}");
        }
    }
}

fn move_of(action: Action) -> Move {
    match action {
        Action::Move(m) => m,
        other => panic!("not a move: {other:?}"),
    }
}

#[test]
fn a_roll_out_of_range_names_its_action_index() {
    for &(id, _) in BUILTIN {
        let rules = Rules::builtin(id).unwrap();
        let record = finished_record(id, 4);
        let rolls: Vec<usize> = record.actions.iter().enumerate().filter(|(_, a)| matches!(a, Action::Roll(_))).map(|(i, _)| i).collect();
        let bad_raws: Vec<u8> = (0..=u8::MAX).filter(|&r| rules.throw(r).is_none()).collect();
        for (k, &i) in rolls.iter().step_by(rolls.len() / 4 + 1).enumerate() {
            let raw = bad_raws[k % bad_raws.len()];
            let mut r = record.clone();
            r.actions[i] = Action::Roll(raw);
            let e = r.replay().unwrap_err();
            assert_eq!(
                e,
                RecordError::Illegal {
                    index: i,
                    action: format!("roll {raw}"),
                    error: GameError::BadRoll { raw, dice: rules.dice().name() }
                },
                "{id}"
            );
            let text = e.to_string();
            assert!(text.contains(&format!("action {i}")) && text.contains(&raw.to_string()), "{id}: {text}");
        }
    }
}

#[test]
fn a_wrong_recorded_winner_is_refused() {
    for &(id, _) in BUILTIN {
        let record = finished_record(id, 8);
        let actual = record.winner;
        for recorded in [None, actual.map(Side::other)] {
            let mut r = record.clone();
            r.winner = recorded;
            let e = r.replay().unwrap_err();
            assert_eq!(e, RecordError::Winner { recorded, actual }, "{id}");
            assert!(e.to_string().contains("won"), "{e}");
        }
        // An unfinished game that claims a winner.
        let mut r = record.clone();
        r.actions.truncate(r.actions.len() / 2);
        let e = r.replay().unwrap_err();
        assert_eq!(e, RecordError::Winner { recorded: actual, actual: None }, "{id}");
        // Actions after the end.
        let mut r = record.clone();
        r.actions.push(Action::Roll(1));
        let e = r.replay().unwrap_err();
        assert!(matches!(&e, RecordError::Illegal { index, error: GameError::Over, .. } if *index == record.actions.len()), "{id}: {e:?}");
    }
}

#[test]
fn an_invalid_start_position_is_refused() {
    for &(id, _) in BUILTIN {
        let rules = Arc::new(Rules::builtin(id).unwrap());
        let game = random_game_from_midgame(&rules, 9, 120, MAX_ACTIONS);
        let record = GameRecord::of(&game, None);
        let start = record.start.clone().unwrap_or_else(|| panic!("{id}: a mid-game start is recorded"));
        assert_eq!(record.replay().unwrap().state(), game.state(), "{id}");

        let mut r = record.clone();
        r.start.as_mut().unwrap().light.reserve += 1;
        let e = r.replay().unwrap_err();
        assert!(matches!(e, RecordError::Start(ur_rules::PositionError::PieceCount { side: Side::Light, .. })), "{id}: {e:?}");
        assert!(e.to_string().contains("start position"), "{e}");

        let mut r = record.clone();
        let s = r.start.as_mut().unwrap();
        s.dark.path.push(rules.path_len() + 1);
        s.dark.reserve = s.dark.reserve.wrapping_sub(1);
        assert!(matches!(r.replay(), Err(RecordError::Start(_))), "{id}");

        // Every piece off for both sides.
        let mut r = record.clone();
        let n = rules.pieces();
        let all_off = ur_rules::SideSetup { reserve: 0, off: n, path: vec![], birds: None };
        r.start = Some(ur_rules::Setup { to_move: start.to_move, light: all_off.clone(), dark: all_off });
        assert_eq!(r.replay().unwrap_err(), RecordError::Start(ur_rules::PositionError::BothWon), "{id}");

        // The usual start written out is the same game as no start at all.
        let plain = finished_record(id, 9);
        let mut r = plain.clone();
        r.start = Some(ur_rules::State::start(&rules, plain.first).to_setup(&rules));
        assert_eq!(r.replay().unwrap().state(), plain.replay().unwrap().state(), "{id}");
        assert_eq!(GameRecord::of(&r.replay().unwrap(), None), plain, "{id}: the usual start is not written");
    }
}

#[test]
fn a_corrupt_embedded_rules_file_is_a_rules_error() {
    let record = finished_record("finkel", 2);
    let text = BUILTIN[0].1;
    let cases = [
        ("pieces = 7", "pieces = [7"),
        ("dice = \"BIN4\"", "dice = \"BIN9\""),
        ("path = \"PATH-14\"", "path = \"PATH-99\""),
        ("board = \"standard\"", "board = \"round\""),
        ("id = \"finkel\"", ""),
    ];
    for (from, to) in cases {
        let mut r = record.clone();
        r.rules_file = Some(text.replace(from, to));
        let e = r.replay().unwrap_err();
        assert!(matches!(e, RecordError::Rules(_)), "{to}: {e:?}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn records_with_unusual_embedded_rules_files_do_not_panic() {
    // Rule files that parse and compile, replayed from a few throws: the
    // replay must give a game or a RecordError, never a panic.
    let finkel = BUILTIN[0].1;
    let mut thirty: Vec<[u8; 2]> = vec![[2, 3], [2, 2], [2, 1], [2, 0]];
    thirty.extend((0..12).map(|c| [1, c]));
    thirty.extend((0..12).rev().map(|c| [0, c]));
    thirty.extend([[1, 0], [1, 1]]);
    let aseb = BUILTIN.iter().find(|(i, _)| *i == "aseb").unwrap().1;
    let cases = [
        ("a throw of 40", finkel.replacen("dice = \"BIN4\"", "dice = \"BIN4\"\nthrows = [{ raw = 4, value = 40 }]", 1)),
        ("a throw of 250", finkel.replacen("dice = \"BIN4\"", "dice = \"BIN4\"\nthrows = [{ raw = 4, value = 250 }]", 1)),
        ("a 30-square path", aseb.replace("path = \"ASEB\"", &format!("path = {thirty:?}"))),
    ];
    let mut panicked = Vec::new();
    for (name, text) in cases {
        for raw in 0..=4u8 {
            let record = GameRecord {
                version: ur_rules::record::RECORD_VERSION,
                rules: "custom".into(),
                options: Options::new(),
                rules_file: Some(text.clone()),
                first: Side::Light,
                start: None,
                actions: vec![Action::Roll(raw)],
                winner: None,
                tags: Vec::new(),
            };
            if std::panic::catch_unwind(|| record.replay().map(drop)).is_err() {
                panicked.push(format!("{name}, roll {raw}"));
            }
        }
    }
    assert!(panicked.is_empty(), "replay panicked: {panicked:?}");
}

// ---------------------------------------------------------------------------
// Fuzzing
// ---------------------------------------------------------------------------

/// How to damage a record's JSON.
#[derive(Clone, Debug)]
enum Damage {
    /// Replace one byte.
    Flip(prop::sample::Index, u8),
    /// Replace one ASCII digit with another.
    Digit(prop::sample::Index, u8),
    /// Cut the text short.
    Truncate(prop::sample::Index),
    /// Remove a range.
    Delete(prop::sample::Index, usize),
    /// Copy a range to elsewhere.
    Duplicate(prop::sample::Index, usize, prop::sample::Index),
}

fn damage() -> impl Strategy<Value = Damage> {
    let i = any::<prop::sample::Index>;
    prop_oneof![
        3 => (i(), any::<u8>()).prop_map(|(a, b)| Damage::Flip(a, b)),
        4 => (i(), 0..10u8).prop_map(|(a, d)| Damage::Digit(a, d)),
        1 => i().prop_map(Damage::Truncate),
        2 => (i(), 1..24usize).prop_map(|(a, n)| Damage::Delete(a, n)),
        2 => (i(), 1..40usize, i()).prop_map(|(a, n, b)| Damage::Duplicate(a, n, b)),
    ]
}

fn apply_damage(bytes: &mut Vec<u8>, d: &Damage) {
    if bytes.is_empty() {
        return;
    }
    match d {
        Damage::Flip(at, b) => {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        Damage::Digit(at, digit) => {
            let digits: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i].is_ascii_digit()).collect();
            if !digits.is_empty() {
                bytes[digits[at.index(digits.len())]] = b'0' + digit;
            }
        }
        Damage::Truncate(at) => bytes.truncate(at.index(bytes.len())),
        Damage::Delete(at, n) => {
            let i = at.index(bytes.len());
            let j = (i + n).min(bytes.len());
            bytes.drain(i..j);
        }
        Damage::Duplicate(at, n, to) => {
            let i = at.index(bytes.len());
            let j = (i + n).min(bytes.len());
            let piece: Vec<u8> = bytes[i..j].to_vec();
            let k = to.index(bytes.len() + 1);
            bytes.splice(k..k, piece);
        }
    }
}

#[test]
fn damaged_records_never_panic() {
    // Short games under every rule set (and a few option values), so that
    // damage often lands in the header and the options.
    let mut bases: Vec<String> = Vec::new();
    for &(id, _) in BUILTIN {
        let all = playable(id);
        for (k, rules) in all.iter().enumerate().step_by(all.len() / 3 + 1) {
            let game = random_game(rules, k as u64, MAX_ACTIONS);
            bases.push(serde_json::to_string(&GameRecord::of(&game, None)).unwrap());
            let game = random_game(rules, k as u64 + 100, 60);
            bases.push(serde_json::to_string(&GameRecord::of(&game, None)).unwrap());
            let game = random_game_from_midgame(rules, k as u64 + 200, 80, 40);
            bases.push(serde_json::to_string(&GameRecord::of(&game, None)).unwrap());
        }
    }
    let mut runner = TestRunner::new(config(20_000));
    let strategy = (0..bases.len(), prop::collection::vec(damage(), 1..4));
    let (parsed, replayed) = (std::cell::Cell::new(0u32), std::cell::Cell::new(0u32));
    let result = runner.run(&strategy, |(b, damages)| {
        let mut bytes = bases[b].clone().into_bytes();
        for d in &damages {
            apply_damage(&mut bytes, d);
        }
        let record: GameRecord = match serde_json::from_slice(&bytes) {
            Ok(r) => r,
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                return Ok(());
            }
        };
        parsed.set(parsed.get() + 1);
        match record.replay() {
            Ok(game) => {
                replayed.set(replayed.get() + 1);
                prop_assert_eq!(game.winner(), record.winner);
                prop_assert_eq!(game.history().len(), record.actions.len());
                for (h, a) in game.history().iter().zip(&record.actions) {
                    // A move given without its bird number matches any bird.
                    let same = match (h, a) {
                        (Action::Move(h), Action::Move(a)) => h.from == a.from && h.to == a.to && (a.piece == 0 || a.piece == h.piece),
                        _ => h == a,
                    };
                    prop_assert!(same, "history {h:?} vs record {a:?}");
                }
            }
            Err(e) => {
                let text = e.to_string();
                prop_assert!(!text.is_empty());
                if let RecordError::Illegal { index, .. } = e {
                    prop_assert!(index < record.actions.len());
                    prop_assert!(text.contains(&format!("action {index}")), "{text}");
                }
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(parsed.get() > 2_000, "only {} damaged records parsed", parsed.get());
    assert!(replayed.get() > 100, "only {} damaged records replayed", replayed.get());
}
