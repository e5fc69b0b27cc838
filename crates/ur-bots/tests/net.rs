//! The shipped race network against exact values, and the `net` bots.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use ur_bots::expectimax::LeafValue;
use ur_bots::net::{builtin, NetFile, RaceNet};
use ur_bots::{make_bot, BotError, Oracle};
use ur_rules::{AnyGame, Extra, OptionValue, Options, Playable, Rules, Side, State};

mod common;
use common::oracle;

fn finkel(pieces: i64) -> Arc<Rules> {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Arc::new(Rules::builtin_with("finkel", &opts).unwrap())
}

/// Turn starts of random games, and the mean loss of the network's
/// one-move choices against the table's best, in pp.
fn measure(rules: &Arc<Rules>, oracle: &Oracle, net: &impl LeafValue) -> (f64, f64, usize) {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut sq, mut n, mut loss, mut decisions) = (0.0, 0usize, 0.0, 0usize);
    let mut st = State::start(rules, Side::Light);
    while n < 4000 {
        let exact = oracle.value(&st);
        sq += (net.value(&st) - exact).powi(2);
        n += 1;
        let t = rules.throw(rules.dice().sample_bits(rng.gen())).unwrap();
        let moves = oracle.move_values(&st, &t);
        if moves.is_empty() {
            st.set_to_move(st.to_move().other());
            continue;
        }
        if moves.len() > 1 {
            let best = moves.iter().map(|m| m.1).fold(0.0, f64::max);
            let after = |m: ur_rules::Move| {
                let mut next = st;
                let effect = rules.apply_unchecked(&mut next, &t, m);
                match rules.finish_move(&mut next, &effect) {
                    Some(_) => 1.0,
                    None if next.to_move() == st.to_move() => net.value(&next),
                    None => 1.0 - net.value(&next),
                }
            };
            let chosen = moves.iter().max_by(|a, b| after(a.0).total_cmp(&after(b.0))).unwrap();
            loss += best - chosen.1;
            decisions += 1;
        }
        let mv = moves[rng.gen_range(0..moves.len())].0;
        let effect = rules.apply_unchecked(&mut st, &t, mv);
        if rules.finish_move(&mut st, &effect).is_some() {
            st = State::start(rules, Side::Dark);
        } else if effect.extra == Extra::Optional {
            st.set_to_move(st.to_move().other());
        }
    }
    (100.0 * (sq / n as f64).sqrt(), 100.0 * loss / decisions as f64, decisions)
}

/// The shipped network was trained by self-play on 7-piece Finkel alone;
/// a 3-piece position is a 7-piece one with four pieces of each side borne off.
#[test]
fn the_shipped_finkel_network_is_close_to_the_exact_three_piece_values() {
    let rules = finkel(3);
    let dir = tempfile::tempdir().unwrap();
    let oracle = oracle(&rules, dir.path());
    let file = builtin(&rules).expect("the Finkel network serves fewer pieces");
    let net = RaceNet::new(&rules, &file);
    let (rmse, regret, decisions) = measure(&rules, &oracle, &net);
    // The learned linear evaluation, fitted to tables of this very game, for scale.
    let (lin_rmse, lin_regret, _) = measure(&rules, &oracle, &ur_bots::Evaluator::new(rules.clone()));
    eprintln!("network: rmse {rmse:.4} pp, regret {regret:.4} pp; linear: {lin_rmse:.4}, {lin_regret:.4} ({decisions} decisions)");
    assert!(decisions > 1000, "{decisions} decisions");
    assert!(rmse < 2.5, "RMS error {rmse:.3} pp against the table");
    assert!(regret < 0.15, "one-move regret {regret:.4} pp");
    assert!(rmse < lin_rmse && regret < lin_regret, "the network does no better than the linear evaluation");
}

#[test]
fn net_bots_refuse_rules_without_a_network_and_bad_names() {
    let bot = make_bot("net:1", 1).unwrap();
    let towers = AnyGame::new("ravensburg-1977", &Options::new(), Side::Light).unwrap();
    assert_eq!(bot.check(&towers), Ok(()));
    // A network serves the piece count it was trained with, not a small variant.
    let guard = |tokens: i64| {
        AnyGame::new("guard-d6", &[("tokens_per_player".into(), ur_rules::OptionValue::Int(tokens))].into(), Side::Light).unwrap()
    };
    assert_eq!(bot.check(&guard(10)), Ok(()));
    assert!(matches!(bot.check(&guard(2)), Err(BotError::NoNetwork { .. })));
    // Named birds: the five-bird game has its network, the three-bird variant none.
    let birds = |n: i64| AnyGame::new("v1-named-birds", &[("pieces".into(), ur_rules::OptionValue::Int(n))].into(), Side::Light).unwrap();
    assert_eq!(bot.check(&birds(5)), Ok(()));
    assert!(matches!(bot.check(&birds(3)), Err(BotError::NoNetwork { .. })));
    assert!(ur_bots::hint::network_judges(&birds(5)) && !ur_bots::hint::network_judges(&birds(3)));
    // Nor other dice: it learned the booklet's four binary lots.
    let d4 = AnyGame::new("v1-named-birds", &[("dice".into(), ur_rules::OptionValue::Text("D4".into()))].into(), Side::Light).unwrap();
    assert!(matches!(bot.check(&d4), Err(BotError::NoNetwork { .. })));
    assert_eq!(ur_bots::net::for_game(&birds(5)).unwrap().geometry, ur_bots::eval::geometry_key(birds(5).as_race().unwrap().rules()));
    let finkel = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
    assert_eq!(bot.check(&finkel), Ok(()));
    for bad in ["net:x", "net:-1", "net:99", "net:0ms"] {
        assert!(matches!(make_bot(bad, 1), Err(BotError::Unknown(_))), "{bad}");
    }
}

#[test]
fn a_network_file_is_checked_when_read() {
    let file = builtin(&finkel(7)).unwrap();
    let text = serde_json::to_string(&*file).unwrap();
    assert_eq!(NetFile::parse(&text).unwrap(), *file);
    let other = text.replacen("ur-net-v1", "ur-net-v0", 1);
    assert!(NetFile::parse(&other).unwrap_err().contains("format 'ur-net-v0'"));
    let mut short = (*file).clone();
    short.net.params.pop();
    let err = NetFile::parse(&serde_json::to_string(&short).unwrap()).unwrap_err();
    assert!(err.contains("parameters"), "{err}");
    assert!(NetFile::parse("{}").unwrap_err().starts_with("not a network file"));
}

/// The named-birds network plays every kind of decision (declarations,
/// moves) of the five-bird game for levels 4 and 5, to the end.
#[test]
fn the_levels_play_named_birds_through_their_network() {
    let mut game = AnyGame::new("v1-named-birds", &Options::new(), Side::Light).unwrap();
    let mut bots = [make_bot("level5", 1).unwrap(), make_bot("level4", 2).unwrap()];
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    let mut declarations = 0;
    while !matches!(game.turn(), ur_rules::Turn::Over(_)) {
        match game.turn() {
            ur_rules::Turn::Roll(_) => {
                game.roll_with(&mut rng).unwrap();
            }
            ur_rules::Turn::Decide(side) => {
                let race = game.as_race().unwrap();
                declarations += usize::from(race.phase() == ur_rules::Phase::Declare);
                let action = bots[side.index()].decide(&game);
                assert!(game.actions().contains(&action), "{action} is open");
                game.apply(&action).unwrap();
            }
            ur_rules::Turn::Over(_) => unreachable!(),
        }
    }
    assert!(declarations > 20, "{declarations} declarations");
}

/// A file's ending network judges the positions where each side has at
/// most `max_left` pieces to bear off, and only those; it survives a
/// write and a read, and one that does not fit the base network is refused.
#[test]
fn an_ending_network_judges_the_ending_only() {
    let rules = finkel(7);
    let base = (*builtin(&rules).unwrap()).clone();
    let mut file = base.clone();
    let ending = ur_bots::net::Mlp::new(base.net.inputs, 8, 3);
    file.ending = Some(ur_bots::net::EndingNet { max_left: 3, net: ending.clone(), training: serde_json::Value::Null });
    let text = serde_json::to_string(&file).unwrap();
    assert_eq!(NetFile::parse(&text).unwrap(), file);
    let (plain, joined) = (RaceNet::new(&rules, &base), RaceNet::new(&rules, &file));
    let alone = RaceNet::from_parts(plain.encoder.clone(), ending);
    let position = |off: [u8; 2]| {
        let side = |off: u8| ur_rules::SideSetup { reserve: 7 - off, off, path: Vec::new(), birds: None };
        rules.validate(&ur_rules::Setup { to_move: Side::Light, light: side(off[0]), dark: side(off[1]) }).unwrap()
    };
    for (off, in_ending) in [([4, 4], true), ([6, 5], true), ([3, 4], false), ([4, 0], false), ([0, 0], false)] {
        let st = position(off);
        let want = if in_ending { alone.value(&st) } else { plain.value(&st) };
        assert_eq!(joined.value(&st), want, "{off:?} off");
    }
    let mut wrong = file.clone();
    wrong.ending.as_mut().unwrap().net = ur_bots::net::Mlp::new(base.net.inputs + 1, 8, 3);
    let err = NetFile::parse(&serde_json::to_string(&wrong).unwrap()).unwrap_err();
    assert!(err.contains("as many inputs"), "{err}");
}
