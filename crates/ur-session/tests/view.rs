//! `GameView` for every rule set: the board's geometry, the pieces, the
//! throw and the open actions agree with the game, at the start and over
//! seeded random games.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;
use ur_rules::spec::BUILTIN;
use ur_rules::{family_rule_sets, AnyGame, Playable, Side, Turn};
use ur_session::view::{game_view, view_of, GameView, Phrase, Spot, PHRASE_KEYS};
use ur_session::{NewGame, NoTables, RulesSource, Session};

const MARKS: [&str; 18] = [
    "rosette",
    "eyes",
    "five",
    "passage",
    "twelve",
    "conversion",
    "cross",
    "start",
    "goal",
    "unused",
    "safe",
    "shared",
    "stop",
    "extra_roll",
    "refuge",
    "twins",
    "oracle",
    "warrior",
];

fn all_ids() -> Vec<String> {
    BUILTIN.iter().map(|(id, _)| id.to_string()).chain(family_rule_sets().into_iter().map(|s| s.id.to_string())).collect()
}

fn session(id: &str) -> Session {
    Session::new(&NewGame::builtin(id), &NoTables).unwrap()
}

/// Each side's full set of pieces.
fn pieces_per_side(game: &AnyGame) -> u32 {
    match game {
        AnyGame::Race(g) => u32::from(g.rules().pieces()),
        AnyGame::Tower(g) => u32::from(g.rules().tokens),
        AnyGame::Bens(_) => u32::from(ur_rules::marker::bens::MARKERS),
        AnyGame::Akalandung(_) => u32::from(ur_rules::marker::akalandung::PIECES),
    }
}

fn square_at(view: &GameView, id: u16) -> bool {
    view.board.squares.iter().any(|s| s.id == id)
}

/// Everything a view promises, checked against its game.
fn check(view: &GameView, game: &AnyGame) {
    let id = game.rule_id();
    let b = &view.board;
    assert!(b.rows > 0 && b.cols > 0, "{id}");
    let mut ids = BTreeSet::new();
    let mut cells = BTreeSet::new();
    for s in &b.squares {
        assert!(ids.insert(s.id), "{id}: square id {} twice", s.id);
        assert!(cells.insert((s.row, s.col)), "{id}: cell {:?} twice", (s.row, s.col));
        assert!(s.row < b.rows && s.col < b.cols, "{id}: {s:?} outside {}x{}", b.rows, b.cols);
        assert_eq!(s.id, u16::from(s.row) * u16::from(b.cols) + u16::from(s.col), "{id}");
        assert!(!s.name.is_empty(), "{id}: {s:?} has no name");
        for m in &s.marks {
            assert!(MARKS.contains(&m.as_str()), "{id}: mark {m} not in the vocabulary");
        }
        assert_eq!(s.marks.iter().collect::<BTreeSet<_>>().len(), s.marks.len(), "{id}: {s:?} repeats a mark");
    }
    let names: BTreeSet<&String> = b.squares.iter().map(|s| &s.name).collect();
    assert_eq!(names.len(), b.squares.len(), "{id}: square names repeat");
    for path in &b.paths {
        assert!(!path.is_empty(), "{id}");
        assert!(path.iter().all(|&sq| square_at(view, sq)), "{id}: a path square is not on the board");
    }
    assert_eq!(b.paths[0].len(), b.paths[1].len(), "{id}");

    // Pieces add up, per side.
    let p = &view.position;
    let full = pieces_per_side(game);
    for side in Side::BOTH {
        let key = side.name();
        let on_board: u32 = if let AnyGame::Tower(_) = game {
            p.pieces.iter().map(|pc| pc.stack.iter().filter(|s| *s == key).count() as u32).sum()
        } else {
            p.pieces.iter().filter(|pc| pc.side == key).map(|pc| pc.count).sum()
        };
        assert_eq!(on_board + p.reserve[side.index()] + p.off[side.index()], full, "{id}: {key} pieces do not add up\n{}", view.board_text);
    }
    for pc in &p.pieces {
        assert!(square_at(view, pc.square), "{id}: piece on no square");
        assert!(pc.count > 0 && (pc.side == "light" || pc.side == "dark"), "{id}: {pc:?}");
        if let AnyGame::Tower(_) = game {
            assert_eq!(pc.stack.len(), pc.stack_faces.len(), "{id}");
            assert_eq!(pc.stack.last(), Some(&pc.side), "{id}: the top token controls the stack");
            assert_eq!(pc.count as usize, pc.stack.iter().filter(|s| **s == pc.side).count(), "{id}");
        } else {
            assert!(pc.stack.is_empty(), "{id}");
        }
    }

    // Turn, throw and actions.
    let actions = game.actions();
    assert_eq!(view.actions.len(), actions.len(), "{id}");
    assert!(!view.turn.text.is_empty() && !view.turn.text.contains("turns without progress"), "{id}: {}", view.turn.text);
    match game.turn() {
        Turn::Roll(s) => assert_eq!((view.turn.stage.as_str(), view.turn.side.as_deref()), ("roll", Some(s.name())), "{id}"),
        Turn::Decide(s) => assert_eq!((view.turn.stage.as_str(), view.turn.side.as_deref()), ("act", Some(s.name())), "{id}"),
        Turn::Over(w) => {
            assert_eq!(view.turn.stage, "over", "{id}");
            assert_eq!(view.winner.as_deref(), Some(w.map_or("draw", Side::name)), "{id}");
        }
    }
    if let Some(t) = &view.throw {
        match t.kind.as_str() {
            "binary" => {
                assert!(t.dice.len() == 3 || t.dice.len() == 4, "{id}");
                assert!(t.dice.iter().all(|&d| d <= 1), "{id}");
                assert_eq!(t.dice.iter().map(|&d| u32::from(d)).sum::<u32>(), u32::from(t.raw), "{id}");
            }
            "d4" => assert!(t.dice == [t.raw] && (1..=4).contains(&t.raw), "{id}"),
            "d6" => assert!(t.dice == [t.raw] && (1..=6).contains(&t.raw), "{id}"),
            other => panic!("{id}: dice kind {other}"),
        }
        assert!(!t.text.is_empty(), "{id}");
    }
    if !actions.is_empty() {
        assert!(matches!(game.turn(), Turn::Decide(_)), "{id}");
    }
    let mover = view.turn.side.clone().unwrap_or_default();
    for (i, (a, action)) in view.actions.iter().zip(&actions).enumerate() {
        assert_eq!(a.index, i, "{id}");
        assert!(!a.text.is_empty(), "{id}");
        let back = game.action_from_json(&a.json).unwrap_or_else(|e| panic!("{id}: {} does not read back: {e}", a.json));
        assert_eq!(&back, action, "{id}: {} reads back as another action", a.json);
        match a.kind.as_str() {
            "move" => {
                let (Some(from), Some(to)) = (&a.from, &a.to) else { panic!("{id}: a move without ends: {a:?}") };
                for spot in [from, to] {
                    match spot {
                        Spot::Square { square } => assert!(square_at(view, *square), "{id}: {a:?}"),
                        Spot::Reserve { side } | Spot::Off { side } => assert_eq!(side, &mover, "{id}: {a:?}"),
                    }
                }
                assert!(!matches!(from, Spot::Off { .. }) && !matches!(to, Spot::Reserve { .. }), "{id}: {a:?}");
                match from {
                    Spot::Square { square } => {
                        let own = view.position.pieces.iter().any(|pc| pc.square == *square && pc.side == mover);
                        assert!(own, "{id}: {} starts where the mover has no piece\n{}", a.text, view.board_text);
                    }
                    Spot::Reserve { .. } => assert!(view.position.reserve[side_index(&mover)] > 0, "{id}: {a:?}"),
                    Spot::Off { .. } => unreachable!(),
                }
            }
            "choice" => assert!(a.from.is_none() && a.to.is_none(), "{id}"),
            other => panic!("{id}: action kind {other}"),
        }
    }
    check_words(view, id);
    let json = serde_json::to_value(view).unwrap();
    assert!(json["board"]["squares"].is_array() && json["position"]["pieces"].is_array(), "{id}");
    for a in json["actions"].as_array().unwrap() {
        for end in ["from", "to"] {
            if let Some(at) = a[end].get("at") {
                assert!(matches!(at.as_str(), Some("square" | "reserve" | "off")), "{id}: {a}");
            }
        }
    }
}

/// A phrase uses a listed key with exactly the listed arguments (bracketed
/// ones may be left out).
fn check_phrase(p: &Phrase, id: &str) {
    let entry = PHRASE_KEYS.iter().find(|k| k.split(':').next() == Some(p.key));
    let entry = entry.unwrap_or_else(|| panic!("{id}: phrase key {} is not in PHRASE_KEYS", p.key));
    let listed: Vec<&str> = entry.split(':').nth(1).unwrap_or_default().split_whitespace().collect();
    for arg in p.args.keys() {
        assert!(listed.iter().any(|l| l.trim_matches(['[', ']']) == arg), "{id}: {} has an unlisted argument {arg}", p.key);
    }
    for l in listed.iter().filter(|l| !l.starts_with('[')) {
        assert!(p.args.contains_key(*l), "{id}: {} lacks its argument {l}", p.key);
    }
}

/// Every text of the view has its phrases: an action is an `act.*` phrase
/// and then `fx.*` ones, a throw what the dice show and then `throw.*` ones,
/// a note one `note.*` phrase.
fn check_words(view: &GameView, id: &str) {
    for a in &view.actions {
        let (first, rest) = a.words.split_first().unwrap_or_else(|| panic!("{id}: {} has no words", a.text));
        assert!(first.key.starts_with("act."), "{id}: {first:?}");
        assert!(rest.iter().all(|p| p.key.starts_with("fx.")), "{id}: {:?}", a.words);
        assert_eq!(a.kind == "move", first.args.contains_key("from"), "{id}: {a:?}");
        a.words.iter().for_each(|p| check_phrase(p, id));
    }
    if let Some(t) = &view.throw {
        assert!(t.words.len() >= 2 && t.words.iter().all(|p| p.key.starts_with("throw.")), "{id}: {t:?}");
        assert!(t.words.iter().chain(t.table.iter().flat_map(|r| &r.words)).all(|p| p.key.starts_with("throw.")), "{id}");
        t.words.iter().chain(t.table.iter().flat_map(|r| &r.words)).for_each(|p| check_phrase(p, id));
        for r in &t.table {
            assert_eq!(r.text.is_empty(), r.words.is_empty(), "{id}: {r:?}");
        }
    }
    assert_eq!(view.position.notes.len(), view.position.note_words.len(), "{id}");
    for p in &view.position.note_words {
        assert!(p.key.starts_with("note."), "{id}: {p:?}");
        check_phrase(p, id);
    }
}

fn side_index(key: &str) -> usize {
    usize::from(key == "dark")
}

/// Plays `steps` random steps with seeded dice and random decisions,
/// checking the view at each; returns the phrase keys the views used.
fn play_checking(id: &str, seed: u64, steps: usize) -> BTreeSet<&'static str> {
    let mut s = session(id);
    s.seed_dice(seed);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
    let mut keys = BTreeSet::new();
    check(&game_view(&s), s.game());
    for _ in 0..steps {
        match s.game().turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => drop(s.roll_dice().unwrap()),
            Turn::Decide(_) => {
                let view = game_view(&s);
                let pick = rng.gen_range(0..view.actions.len());
                // Play the action the client would send back: its JSON.
                let action = s.game().action_from_json(&view.actions[pick].json).unwrap();
                s.act(&action).unwrap();
            }
        }
        let view = game_view(&s);
        check(&view, s.game());
        keys.extend(phrases(&view).map(|p| p.key));
    }
    keys
}

fn phrases(view: &GameView) -> impl Iterator<Item = &Phrase> {
    let throw = view.throw.iter().flat_map(|t| t.words.iter().chain(t.table.iter().flat_map(|r| &r.words)));
    view.actions.iter().flat_map(|a| &a.words).chain(throw).chain(&view.position.note_words)
}

#[test]
fn there_are_seventeen_rule_sets() {
    assert_eq!(all_ids().len(), 17);
}

#[test]
fn every_start_view_is_whole() {
    for id in all_ids() {
        let s = session(&id);
        let view = game_view(&s);
        check(&view, s.game());
        assert_eq!(view.rules.id, id);
        assert!(!view.rules.name.is_empty() && view.rules.name != id, "{id}: {}", view.rules.name);
        assert_eq!(view.position.reserve[0], pieces_per_side(s.game()), "{id}");
        assert!(view.position.pieces.is_empty(), "{id}");
        let starts = view.board.squares.iter().filter(|sq| sq.marks.iter().any(|m| m == "start")).count();
        assert!(starts >= 1, "{id}");
    }
}

#[test]
fn every_rule_set_stays_whole_over_random_games() {
    let mut seen = BTreeSet::new();
    for id in all_ids() {
        for seed in 0..4 {
            seen.extend(play_checking(&id, seed, 400));
        }
    }
    // Every listed phrase turns up, but for fallbacks that no built-in rule
    // set reaches (an action of an unknown kind, Summon with no bird left, a
    // zero throw awaiting a move), what only reviews say (`throw.threw`), and
    // declining the Twins, which needs an option and a rare position (its
    // case is in ludens-akalandung.cases.toml), and taking the Oracle's
    // Vision, which random play seldom forms (three own pieces on 1, 3 and 11).
    let fallbacks = ["act.other", "act.declare_summon_next", "throw.no_move", "throw.threw", "act.pass_twins", "fx.takes_oracle"];
    let unseen: Vec<&str> =
        PHRASE_KEYS.iter().map(|k| k.split(':').next().unwrap()).filter(|k| !seen.contains(k) && !fallbacks.contains(k)).collect();
    assert!(unseen.is_empty(), "phrase keys no random game used: {unseen:?}");
}

fn cells_with(view: &GameView, mark: &str) -> BTreeSet<(u8, u8)> {
    view.board.squares.iter().filter(|s| s.marks.iter().any(|m| m == mark)).map(|s| (s.row, s.col)).collect()
}

#[test]
fn boards_have_their_rule_sets_geometry_and_decorations() {
    let standard_rosettes: BTreeSet<(u8, u8)> = [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)].into();
    let finkel = game_view(&session("finkel"));
    assert_eq!((finkel.board.rows, finkel.board.cols, finkel.board.squares.len()), (3, 8, 20));
    assert_eq!(cells_with(&finkel, "rosette"), standard_rosettes);
    assert_eq!(cells_with(&finkel, "safe"), standard_rosettes);
    assert_eq!(cells_with(&finkel, "conversion"), [(0, 7), (2, 7)].into());
    assert_eq!(cells_with(&finkel, "eyes").len(), 5);
    assert_eq!(finkel.board.paths[0].len(), 14);
    assert_eq!(finkel.board.squares.iter().find(|s| (s.row, s.col) == (2, 3)).unwrap().name, "d1");
    assert!(cells_with(&finkel, "start").contains(&(2, 3)) && cells_with(&finkel, "goal").contains(&(2, 6)));

    let masters = game_view(&session("masters"));
    assert_eq!(masters.board.paths[0].len(), 16);
    assert!(cells_with(&masters, "safe").is_empty(), "masters' rosettes do not protect");
    assert_eq!(cells_with(&masters, "extra_roll"), standard_rosettes);

    let aseb = game_view(&session("aseb"));
    assert_eq!((aseb.board.rows, aseb.board.cols, aseb.board.squares.len()), (3, 12, 20));
    assert_eq!(cells_with(&aseb, "rosette"), [(0, 0), (2, 0), (1, 3), (1, 7), (1, 11)].into());

    let murray = game_view(&session("regency-murray"));
    let path = &murray.board.paths[0];
    assert_eq!(path.len(), 27);
    assert_eq!(path[0], path[26], "Murray's long path returns to its entry square");
    assert_eq!(path.iter().collect::<BTreeSet<_>>().len(), 20 - 4, "own start row twice, never the other's");

    let ludens = game_view(&session("ludens-planet"));
    assert_eq!(cells_with(&ludens, "stop"), standard_rosettes);

    let bens = game_view(&session("bens-ur"));
    assert_eq!(bens.board.paths[0].len(), 23);
    assert_eq!(cells_with(&bens, "conversion"), [(0, 7), (2, 7)].into());
    assert_eq!(cells_with(&bens, "passage"), [(1, 2), (1, 5)].into());
    assert_eq!(cells_with(&bens, "twelve"), [(1, 0)].into());
    assert_eq!(cells_with(&bens, "rosette"), standard_rosettes);
    assert!(bens.board.paths[0].iter().all(|sq| bens.board.paths[1].contains(sq) || *sq >= 16), "private squares on light's row only");

    let aka = game_view(&session("ludens-akalandung"));
    assert_eq!(cells_with(&aka, "twins"), [(1, 0)].into());
    assert_eq!(cells_with(&aka, "oracle"), [(2, 3), (2, 1), (0, 3), (0, 1), (1, 6)].into());
    assert_eq!(cells_with(&aka, "warrior"), [(2, 2), (0, 2)].into());
    assert_eq!(cells_with(&aka, "shared"), [(1, 3)].into());

    for id in ["ravensburg-1977", "vizier-4-pyramids", "guard-d6"] {
        let tower = game_view(&session(id));
        assert_eq!(tower.board.squares.len(), 20, "{id}");
        assert!(cells_with(&tower, "rosette").is_empty(), "{id}: the tower rules have no rosettes");
        assert_eq!(cells_with(&tower, "shared").len(), 8, "{id}");
        assert_eq!(cells_with(&tower, "refuge"), [(2, 7), (0, 7)].into(), "{id}");
        assert_eq!(cells_with(&tower, "goal"), [(2, 6), (0, 6)].into(), "{id}");
        let names: BTreeSet<&str> = tower.board.squares.iter().map(|s| s.name.as_str()).collect();
        assert!(names.contains("A1") && names.contains("M8") && names.contains("B6"), "{id}: {names:?}");
        assert_eq!(tower.board.squares.iter().find(|s| (s.row, s.col) == (1, 0)).unwrap().name, "M1", "{id}");
    }
    assert_eq!(cells_with(&game_view(&session("guard-d6")), "cross"), [(2, 6), (0, 6)].into());
}

#[test]
fn a_custom_rule_set_file_gets_its_board_from_its_rules() {
    let text = BUILTIN.iter().find(|(id, _)| *id == "finkel").unwrap().1;
    let text = text
        .replace("id = \"finkel\"", "id = \"short-race\"")
        .replace("name = \"Finkel\"", "name = \"A short race\"")
        .replace("path = \"PATH-14\"", "path = [[2, 3], [2, 2], [2, 1], [2, 0], [1, 0], [1, 1], [1, 2], [1, 3]]")
        .replace("kind = \"safe\"", "kind = \"shared\"");
    let new = NewGame { rules: RulesSource::File(text), options: Default::default(), first: Side::Light };
    let mut s = Session::new(&new, &NoTables).unwrap();
    let view = game_view(&s);
    check(&view, s.game());
    assert_eq!(view.rules.name, "A short race");
    assert_eq!(view.board.paths[0].len(), 8);
    assert_eq!(cells_with(&view, "goal"), [(1, 3)].into());
    assert_eq!(cells_with(&view, "unused"), [(0, 6), (0, 7), (1, 4), (1, 5), (1, 6), (1, 7), (2, 6), (2, 7)].into());
    assert_eq!(cells_with(&view, "shared"), [(0, 0), (2, 0), (1, 3)].into(), "rosettes on the paths take their kind");
    s.seed_dice(3);
    for _ in 0..200 {
        match s.game().turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => drop(s.roll_dice().unwrap()),
            Turn::Decide(_) => drop(s.act(&s.game().actions()[0].clone()).unwrap()),
        }
        check(&game_view(&s), s.game());
    }
}

#[test]
fn a_side_named_for_a_colour_is_drawn_in_it() {
    let tones = |id: &str| -> Vec<(String, String, String)> {
        let v = game_view(&session(id));
        v.sides.iter().map(|s| (s.key.clone(), s.name.clone(), s.tone.clone())).collect()
    };
    // Ben's light side is named Black (D13): its pieces are drawn dark.
    let bens = tones("bens-ur");
    assert_eq!(bens[0], ("light".into(), "Black".into(), "dark".into()));
    assert_eq!(bens[1], ("dark".into(), "White".into(), "light".into()));
    for id in all_ids() {
        for (key, name, tone) in tones(&id) {
            let named = match name.as_str() {
                "Black" => Some("dark"),
                "White" => Some("light"),
                _ => None,
            };
            assert_eq!(tone, named.unwrap_or(&key), "{id}: {name} ({key})");
        }
    }
}

#[test]
fn throws_show_their_dice() {
    let mut s = session("regency-bell");
    s.roll(3).unwrap();
    let t = game_view(&s).throw.unwrap();
    assert_eq!((t.kind.as_str(), t.dice.iter().sum::<u8>(), t.raw, t.value), ("binary", 3, 3, 5));
    assert_eq!(t.table.len(), 4, "Bell's throw table");
    assert!(t.text.contains("roll again"), "{}", t.text);

    let mut s = session("finkel");
    s.roll(0).unwrap();
    assert!(game_view(&s).throw.is_none(), "a zero passes: no decision, no throw");
    s.roll(2).unwrap();
    let t = game_view(&s).throw.unwrap();
    assert_eq!((t.dice.len(), t.value, t.table.len()), (4, 2, 0));

    let mut s = session("guard-d6");
    s.roll(4).unwrap();
    let v = game_view(&s);
    assert_eq!(v.throw.as_ref().map(|t| (t.kind.as_str(), t.dice.clone(), t.value)), Some(("d6", vec![4], 4)));
    assert_eq!(v.actions[0].from, Some(Spot::Reserve { side: "light".into() }));

    let mut s = session("vizier-4-pyramids");
    s.roll(0).unwrap();
    let v = game_view(&s);
    if let Turn::Decide(_) = s.game().turn() {
        assert_eq!(v.throw.as_ref().map(|t| (t.raw, t.dice.clone())), Some((0, vec![0, 0, 0, 0])));
        assert!(v.actions.iter().all(|a| a.kind == "choice"));
    }

    let mut s = Session::new(
        &NewGame { options: [("dice".to_string(), ur_rules::OptionValue::Text("D4".into()))].into(), ..NewGame::builtin("v1-named-birds") },
        &NoTables,
    )
    .unwrap();
    let v = game_view(&s);
    assert!(v.actions.iter().all(|a| a.kind == "choice") && !v.actions.is_empty(), "declarations are choices");
    s.act(&s.game().actions()[0].clone()).unwrap();
    assert!(game_view(&s).throw.is_none());
}

#[test]
fn bens_markers_show_their_faces_and_towers_their_stacks() {
    let mut s = session("bens-ur");
    s.set(&serde_json::json!({"to_move": "light", "light": {"blank": [3], "dotted": [14]}, "dark": {"dotted": [16]}})).unwrap();
    let v = game_view(&s);
    check(&v, s.game());
    let faces: BTreeSet<(String, Option<String>)> = v.position.pieces.iter().map(|p| (p.side.clone(), p.face.clone())).collect();
    assert!(faces.contains(&("light".into(), Some("blank".into()))) && faces.contains(&("light".into(), Some("dotted".into()))));

    let mut s = session("ravensburg-1977");
    s.set(&serde_json::json!({"to_move": "light", "stacks": {"M3": "dlL"}})).unwrap();
    let v = game_view(&s);
    check(&v, s.game());
    let stack = &v.position.pieces[0];
    assert_eq!(stack.stack, ["dark", "light", "light"]);
    assert_eq!(stack.stack_faces, ["plain", "plain", "promoted"]);
    assert_eq!((stack.side.as_str(), stack.count, stack.face.as_deref()), ("light", 2, Some("promoted")));
}

#[test]
fn views_serialize_and_the_session_view_is_the_games() {
    for id in all_ids() {
        let s = session(&id);
        let v = game_view(&s);
        assert_eq!(v, view_of(s.game()));
        let text = serde_json::to_string(&v).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["rules"]["id"], Value::String(id.clone()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_give_whole_views(which in 0usize..17, seed in any::<u64>(), steps in 0usize..600) {
        let ids = all_ids();
        play_checking(&ids[which], seed, steps);
    }
}

fn vision_formed(before: &GameView, after: &GameView) -> bool {
    let held = |v: &GameView| v.position.note_words.iter().any(|w| w.key == "note.oracle");
    held(after) && !held(before)
}

/// Who stands on top of `square` in a view: a side key.
fn top_at(view: &GameView, square: u16) -> Option<&str> {
    view.position.pieces.iter().filter(|p| p.square == square).map(|p| p.side.as_str()).next()
}

/// `AnyGame::captures` says what playing the action does: the opponent's
/// reserve grows (the races and marker games), or the destination's stack
/// passes from the opponent to the mover (the tower games). The views say
/// so too, with `fx.captures`.
#[test]
fn captures_says_what_the_move_does() {
    let mut taken = 0;
    for id in all_ids() {
        for seed in 0..3 {
            let mut s = session(&id);
            s.seed_dice(seed);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..300 {
                let side = match s.game().turn() {
                    Turn::Over(_) => break,
                    Turn::Roll(_) => {
                        s.roll_dice().unwrap();
                        continue;
                    }
                    Turn::Decide(side) => side,
                };
                let before = view_of(s.game());
                let (me, other) = (side.name(), side.other().name());
                for (a, shown) in s.game().actions().iter().zip(&before.actions) {
                    let mut g = s.game().clone();
                    g.apply(a).unwrap();
                    let after = view_of(&g);
                    let took = match (s.game(), &shown.to) {
                        (AnyGame::Tower(_), Some(Spot::Square { square })) => {
                            top_at(&before, *square) == Some(other) && top_at(&after, *square) == Some(me)
                        }
                        (AnyGame::Tower(_), _) => false,
                        // Forming the Oracle's Vision sweeps the board too, but takes no piece by landing.
                        _ if vision_formed(&before, &after) => s.game().captures(a),
                        _ => after.position.reserve[side.other().index()] > before.position.reserve[side.other().index()],
                    };
                    assert_eq!(
                        s.game().captures(a),
                        took,
                        "{id}: {} ({a:?}); reserve {:?} -> {:?}\n{}",
                        shown.text,
                        before.position.reserve,
                        after.position.reserve,
                        before.board_text
                    );
                    assert_eq!(shown.words.iter().any(|w| w.key == "fx.captures"), took, "{id}: {:?}", shown.words);
                    taken += usize::from(took);
                }
                let pick = rng.gen_range(0..before.actions.len());
                s.act(&s.game().actions()[pick].clone()).unwrap();
            }
        }
    }
    assert!(taken > 100, "only {taken} capturing moves were tried");
}
