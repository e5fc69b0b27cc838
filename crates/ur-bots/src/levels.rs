//! Difficulty levels 1 to 5, and the noisy player the low levels use.
//!
//! | level | plays                                                             |
//! |-------|-------------------------------------------------------------------|
//! | 1     | one-move lookahead, much noise, 60% blunders (`noisy:0.04:0.6`)    |
//! | 2     | one-move lookahead, some noise, 30% blunders (`noisy:0.015:0.3`)   |
//! | 3     | one-move lookahead, little noise, 10% blunders (`noisy:0.005:0.1`) |
//! | 4     | `net:0` where a network serves (not [`LEVEL4_WITHOUT_NET`]), else `expectimax:2` (others: `mcts:300`), 5% blunders |
//! | 5     | `perfect` with a table, else `net:N` where a network serves ([`LEVEL5_NET_PLIES`], [`LEVEL5_NET_PLIES_BY_RULES`], [`LEVEL5_GAME_NET_PLIES`]), else `expectimax:3` (others: `mcts:2000`, `ravensburg-1977` `mcts:6000`) |
//!
//! On the rule sets in [`BLUNDER_LADDERS`] (`regency-bell`), levels 1 to 4
//! are level 5 with a share of random decisions instead.
//!
//! On the families beyond the race the one-move values are the standing
//! ([`ur_rules::Playable::standing`]) instead of the race evaluation; a
//! table is for race sets only. `generic:level5` on a race set searches
//! through the generic code 3 rolls deep ([`LEVEL5_GENERIC_DEPTH`]).
//!
//! The noise is human-like: a move is chosen with probability proportional
//! to `exp((v - v_best) / temperature)` over the evaluation's win
//! probabilities `v`, so near-equal moves are confused often and costly
//! ones rarely, except for an occasional outright blunder (a random
//! decision), which weakens a level by the same measure on every rule set.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{Action, AnyAction, AnyGame, Choice, Game, Phase, Rules};

use crate::expectimax::{Context, ExpectimaxBot, GameSearch, Limit, Search};
use crate::generic::{one_move_values, open_actions};
use crate::mcts::{Budget, MctsBot};
use crate::net::NetBot;
use crate::{Bot, Oracle, PerfectBot};

/// The search depth of level 4 on race sets.
pub const LEVEL4_DEPTH: u32 = 2;
/// How often level 4 plays a random decision instead of its search's:
/// without blunders, level 5 (depth 3) did not separate from it on
/// `masters`, `v1-simple` and `v1-named-birds` in 2,000 games, as the
/// third roll of lookahead gains little there.
pub const LEVEL4_BLUNDERS: f64 = 0.05;
/// The search depth of level 5 when no table serves the rules.
pub const LEVEL5_DEPTH: u32 = 3;
/// Rolls searched beyond the move by level 5 where a network judges the
/// positions (`net:3`, 4.3 ms a decision on Finkel) and no table serves the rules.
pub const LEVEL5_NET_PLIES: u32 = 3;
/// Race rule sets where level 5's network search looks fewer rolls ahead
/// than [`LEVEL5_NET_PLIES`]: on `regency-murray`, whose games last about
/// 3,700 actions, `net:3` takes about 13 ms a decision against under 1 ms
/// for `net:2`, so a game against it takes many seconds (BENCHMARKS.md).
pub const LEVEL5_NET_PLIES_BY_RULES: &[(&str, u32)] = &[("regency-murray", 2)];
/// The same for level 4 (`net:0`, with its blunders).
pub const LEVEL4_NET_PLIES: u32 = 0;
/// The same on the families beyond the race, where the search on game
/// clones is not pruned and costs far more per roll: by rule set, the
/// deepest search that decides well within 50 ms (BENCHMARKS.md: 5.8 ms
/// for `net:4` on `ludens-akalandung`, 3.1 ms for `net:2` on
/// `vizier-4-pyramids`; one roll more costs ten times as much).
pub const LEVEL5_GAME_NET_PLIES: &[(&str, u32)] =
    &[("bens-ur", 2), ("ludens-akalandung", 4), ("vizier-4-pyramids", 2), ("guard-d6", 2), ("ravensburg-1977", 2), ("v1-named-birds", 2)];
/// Level 5's plies on a rule set not in [`LEVEL5_GAME_NET_PLIES`].
pub const LEVEL5_GAME_NET_PLIES_OTHERS: u32 = 1;

/// Level 5's network plies on a rule set beyond the race (the hints' too).
pub fn level5_game_net_plies(id: &str) -> u32 {
    plies_for(LEVEL5_GAME_NET_PLIES, LEVEL5_GAME_NET_PLIES_OTHERS, id)
}

fn plies_for(by_rules: &[(&str, u32)], others: u32, id: &str) -> u32 {
    by_rules.iter().find(|(r, _)| *r == id).map_or(others, |&(_, n)| n)
}
/// Level 4's plies beyond the race (`net:0`, with its blunders).
pub const LEVEL4_GAME_NET_PLIES: u32 = 0;
/// Rule sets where level 4 keeps `mcts` although a network serves them: on
/// `bens-ur` level 5's `net:2` scored only 53.8 % [48.9, 58.6] in 400 games
/// against `net:0` with level 4's blunders (BENCHMARKS.md).
pub const LEVEL4_WITHOUT_NET: &[&str] = &["bens-ur"];
/// `mcts` playouts of levels 4 and 5 on families beyond the race, where
/// the tree search beats the generic expectimax (on `ludens-akalandung`,
/// `expectimax:2` lost 37.5% to 62.5% to level 3 in 2,000 games).
pub const LEVEL4_PLAYOUTS: u32 = 300;
pub const LEVEL5_PLAYOUTS: u32 = 2000;
/// Rule sets where level 5 needs more playouts to be clearly the
/// strongest: on `ravensburg-1977` `mcts:2000` scored only 65.3% of 400
/// games against `expectimax:2`, `mcts:6000` 71.2% of 200 where
/// `mcts:2000` had 62.3% (BENCHMARKS.md).
pub const LEVEL5_PLAYOUTS_BY_RULES: &[(&str, u32)] = &[("ravensburg-1977", 6000)];

/// A level that plays races with one bot and the other families with the
/// network search where a network serves the rule set, else with `mcts`
/// (its playouts chosen per rule set when the first game comes).
struct ByFamily {
    name: String,
    race: Box<dyn Bot>,
    playouts: u32,
    by_rules: &'static [(&'static str, u32)],
    seed: u64,
    /// The tree search and the rule set its playouts were chosen for.
    other: Option<(String, Box<dyn Bot>)>,
    /// How the network search plays.
    net_plies: NetPlies,
    /// Named-pieces rules last played, and whether a game network plays them.
    named: Option<(Arc<Rules>, bool)>,
}

/// How deep a level's network search looks, and where it plays `mcts` despite a network.
#[derive(Clone, Copy)]
struct NetPlies {
    /// Rolls the search looks beyond the move, by rule set.
    by_rules: &'static [(&'static str, u32)],
    /// The same on other rule sets.
    others: u32,
    /// Rule sets where the level plays `mcts` although a network serves them.
    without: &'static [&'static str],
}

impl ByFamily {
    fn boxed(
        name: String,
        race: impl Bot + 'static,
        (playouts, by_rules): (u32, &'static [(&'static str, u32)]),
        seed: u64,
        net_plies: NetPlies,
    ) -> Box<dyn Bot> {
        Box::new(ByFamily { name, race: Box::new(race), playouts, by_rules, seed, other: None, net_plies, named: None })
    }

    /// Whether the race bot decides in `game`: a race, unless its pieces
    /// are named and a game network serves it (the race search does not
    /// see which bird is next).
    fn race_bot_plays(&mut self, game: &AnyGame) -> bool {
        let Some(race) = game.as_race() else { return false };
        if !race.rules().named_pieces() {
            return true;
        }
        let rules = race.rules();
        if !self.named.as_ref().is_some_and(|(r, _)| Arc::ptr_eq(r, rules)) {
            self.named = Some((rules.clone(), crate::hint::network_judges(game)));
        }
        !self.named.as_ref().expect("just set").1
    }

    fn other(&mut self, game: &AnyGame) -> &mut Box<dyn Bot> {
        let rule_id = ur_rules::Playable::rule_id(game);
        if self.other.as_ref().is_none_or(|(id, _)| id != rule_id) {
            let net = self.net_plies;
            let bot: Box<dyn Bot> = if crate::net::for_game(game).is_some() && !net.without.contains(&rule_id) {
                let plies = plies_for(net.by_rules, net.others, rule_id);
                Box::new(NetBot::with_plies(self.name.clone(), plies))
            } else {
                let playouts = self.by_rules.iter().find(|(id, _)| *id == rule_id).map_or(self.playouts, |&(_, n)| n);
                Box::new(MctsBot::new(Budget::Playouts(playouts), self.seed))
            };
            self.other = Some((rule_id.to_string(), bot));
        }
        &mut self.other.as_mut().expect("made above").1
    }
}

impl Bot for ByFamily {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        if self.race_bot_plays(game) {
            self.race.decide(game)
        } else {
            self.other(game).decide(game)
        }
    }

    fn check(&self, game: &AnyGame) -> Result<(), crate::BotError> {
        match game.as_race() {
            Some(_) if !crate::hint::network_judges(game) => self.race.check(game),
            _ => Ok(()),
        }
    }
}

/// The search depth of level 5 on families beyond the race (the generic
/// search on game clones has no pruning).
pub const LEVEL5_GENERIC_DEPTH: u32 = 3;

/// Plays by a soft-max over one-move lookahead values, with occasional
/// blunders (a uniformly random decision).
pub struct NoisyBot {
    name: String,
    temperature: f64,
    blunder: f64,
    rng: Xoshiro256PlusPlus,
    ctx: Option<Context>,
    generic: bool,
}

impl NoisyBot {
    /// `temperature` scales the soft-max over win probabilities; `blunder`
    /// is the probability of a random decision instead.
    pub fn new(name: String, temperature: f64, blunder: f64, seed: u64) -> NoisyBot {
        NoisyBot { name, temperature, blunder, rng: Xoshiro256PlusPlus::seed_from_u64(seed), ctx: None, generic: false }
    }

    /// Plays race sets through the generic code too (tests, comparisons).
    pub fn generic(mut self, on: bool) -> Self {
        self.generic = on;
        self
    }

    /// Every decision open now with its one-move lookahead value.
    fn values(ctx: &Context, game: &Game) -> Vec<(Action, f64)> {
        if game.rules().named_pieces() {
            return GameSearch { eval: &ctx.eval }.action_values(game, 1);
        }
        let st = game.state();
        let mut search = Search::new(&ctx.rules, &ctx.eval, &ctx.throws);
        match game.phase() {
            Phase::Move => {
                let t = game.throw().expect("a throw is set in the move phase");
                game.legal_moves().iter().map(|&m| (Action::Move(m), search.after(st, &t, m, 0, 0.0, 1.0))).collect()
            }
            Phase::ExtraRoll => {
                let reroll = search.chance(st, 0, 0.0, 1.0);
                let mut other = *st;
                other.set_to_move(st.to_move().other());
                let end = 1.0 - search.chance(&other, 0, 0.0, 1.0);
                vec![(Action::Choose(Choice::Reroll), reroll), (Action::Choose(Choice::End), end)]
            }
            p => panic!("bot asked to decide in phase {p:?}"),
        }
    }
}

impl Bot for NoisyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        let values: Vec<(AnyAction, f64)> = match game.as_race().filter(|_| !self.generic) {
            Some(g) => {
                let ctx = Context::for_rules(&mut self.ctx, g.rules());
                NoisyBot::values(ctx, g).into_iter().map(|(a, v)| (AnyAction::Race(a), v)).collect()
            }
            // Other families: the standing one move ahead.
            None => one_move_values(game),
        };
        let i = self.pick(&values);
        values[i].0.clone()
    }
}

impl NoisyBot {
    /// The noisy decision in a race game.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        let ctx = Context::for_rules(&mut self.ctx, game.rules());
        let values = NoisyBot::values(ctx, game);
        values[self.pick(&values)].0
    }

    /// A blunder, or a soft-max draw over the values: the index picked.
    fn pick<A>(&mut self, values: &[(A, f64)]) -> usize {
        if self.blunder > 0.0 && self.rng.gen_bool(self.blunder) {
            return self.rng.gen_range(0..values.len());
        }
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = values.iter().map(|v| ((v.1 - best) / self.temperature).exp()).collect();
        let mut x = self.rng.gen::<f64>() * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        values.len() - 1
    }
}

/// Salt for the blunder generator's seed, so that it does not follow the
/// search's own generator.
const BLUNDER_SEED: u64 = 0x6c65_7665_6c34;

/// Another bot that now and then plays a uniformly random decision instead.
pub struct Blundering {
    inner: Box<dyn Bot>,
    rate: f64,
    rng: Xoshiro256PlusPlus,
}

impl Blundering {
    /// `inner` with a random decision at probability `rate`.
    pub fn new(inner: Box<dyn Bot>, rate: f64, seed: u64) -> Blundering {
        Blundering { inner, rate, rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }
}

impl Bot for Blundering {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        if self.rng.gen_bool(self.rate) {
            let (_, mut actions) = open_actions(game);
            let i = self.rng.gen_range(0..actions.len());
            return actions.swap_remove(i);
        }
        self.inner.decide(game)
    }

    fn check(&self, game: &AnyGame) -> Result<(), crate::BotError> {
        self.inner.check(game)
    }
}

/// Plays perfectly from a table that serves the rules, else searches.
pub struct TopBot {
    name: String,
    perfect: Option<(PerfectBot, String)>,
    search: ExpectimaxBot,
    /// The search with a network at the leaves, where one serves the rules.
    net: NetBot,
    /// Its plies: by rule set, else the default.
    net_plies: (&'static [(&'static str, u32)], u32),
    /// The search for the families beyond the race.
    generic_search: ExpectimaxBot,
    /// The rules last checked, and what serves them.
    checked: Option<(Arc<Rules>, Judge)>,
}

/// What judges a race game's positions for [`TopBot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judge {
    Table,
    Network,
    Evaluation,
}

impl TopBot {
    pub fn new(name: String, oracle: Option<&Oracle>, depth: u32, net_plies: u32) -> TopBot {
        let perfect = oracle.map(|o| (PerfectBot::new(o.clone()), ur_solve::table::fingerprint(o.rules())));
        TopBot {
            search: ExpectimaxBot::named(name.clone(), Limit::Depth(depth)),
            net: NetBot::with_plies(name.clone(), net_plies),
            net_plies: (&[], net_plies),
            generic_search: ExpectimaxBot::named(name.clone(), Limit::Depth(depth.min(LEVEL5_GENERIC_DEPTH))),
            name,
            perfect,
            checked: None,
        }
    }

    /// Plays race sets through the generic search too (tests, comparisons).
    pub fn generic(mut self, on: bool) -> Self {
        self.search = self.search.generic(on);
        self
    }

    /// Network plies by rule set where they differ from the default.
    pub fn net_plies_by_rules(mut self, by_rules: &'static [(&'static str, u32)]) -> Self {
        self.net_plies.0 = by_rules;
        self
    }
}

impl Bot for TopBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        match game.as_race().filter(|_| !self.search.generic) {
            Some(g) => AnyAction::Race(self.decide_race(g)),
            // The table path is race-only; other families are searched.
            None => self.generic_search.decide_generic(game),
        }
    }

    fn check(&self, game: &AnyGame) -> Result<(), crate::BotError> {
        match (game.as_race(), &self.perfect) {
            (None, Some(_)) => Err(crate::BotError::RaceOnly {
                bot: format!("{} with a table", self.name),
                rules: ur_rules::Playable::rule_id(game).into(),
            }),
            _ => Ok(()),
        }
    }
}

impl TopBot {
    /// Perfect play from the table when it serves the rules, else the
    /// search with the network where one serves them, else the search
    /// with the linear evaluation.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        let rules = game.rules();
        if !self.checked.as_ref().is_some_and(|(r, _)| Arc::ptr_eq(r, rules)) {
            let judge = if self.perfect.as_ref().is_some_and(|(_, fp)| *fp == ur_solve::table::fingerprint(rules)) {
                Judge::Table
            } else if !self.search.generic && crate::net::builtin(rules).is_some() {
                let (by_rules, others) = self.net_plies;
                self.net = NetBot::with_plies(self.name.clone(), plies_for(by_rules, others, rules.id()));
                Judge::Network
            } else {
                Judge::Evaluation
            };
            self.checked = Some((rules.clone(), judge));
        }
        match (&mut self.perfect, self.checked.as_ref().map(|c| c.1)) {
            (Some((p, _)), Some(Judge::Table)) => p.decide_race(game),
            (_, Some(Judge::Network)) => self.net.decide_race(game),
            _ => self.search.decide_race(game),
        }
    }
}

/// Rule sets where the fixed levels do not separate, as luck decides most
/// games; there level N (1 to 4) is level 5 playing a random decision at
/// the N-th rate (level 1 is `random`). On `regency-bell` counters enter
/// only on a 1-in-8 throw and level 5 scores only 66% against `random`,
/// so the four steps share that margin; the rates are closer near the top,
/// where a blunder costs more.
pub const BLUNDER_LADDERS: &[(&str, [f64; 4])] = &[("regency-bell", [1.0, 0.7, 0.45, 0.2])];

/// The blunder rate of `level` on the rule set `rule_id`, if it has a ladder.
pub fn ladder_rate(rule_id: &str, level: u8) -> Option<f64> {
    let (_, rates) = BLUNDER_LADDERS.iter().find(|(id, _)| *id == rule_id)?;
    rates.get(usize::from(level).checked_sub(1)?).copied()
}

/// A level below 5: on a rule set with a ladder, level 5 with the ladder's
/// blunder rate; elsewhere the level's fixed definition.
struct Laddered {
    level: u8,
    fixed: Box<dyn Bot>,
    /// Level 5 behind the blunders, built when a ladder first needs it.
    top: Option<Blundering>,
    make_top: Box<dyn Fn() -> Blundering + Send>,
}

impl Laddered {
    fn boxed(level: u8, fixed: Box<dyn Bot>, seed: u64, oracle: Option<&Oracle>, generic: bool) -> Box<dyn Bot> {
        let oracle = oracle.cloned();
        let make_top = Box::new(move || {
            let top = level_bot_with(5, seed, oracle.as_ref(), generic).expect("level 5 exists");
            Blundering::new(top, 0.0, seed ^ BLUNDER_SEED)
        });
        Box::new(Laddered { level, fixed, top: None, make_top })
    }
}

impl Bot for Laddered {
    fn name(&self) -> String {
        self.fixed.name()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        match ladder_rate(ur_rules::Playable::rule_id(game), self.level) {
            Some(rate) => {
                let top = self.top.get_or_insert_with(&self.make_top);
                top.rate = rate;
                top.decide(game)
            }
            None => self.fixed.decide(game),
        }
    }

    fn check(&self, game: &AnyGame) -> Result<(), crate::BotError> {
        self.fixed.check(game)
    }
}

/// The bot for a difficulty level (1 to 5).
pub fn level_bot(level: u8, seed: u64, oracle: Option<&Oracle>) -> Option<Box<dyn Bot>> {
    level_bot_with(level, seed, oracle, false)
}

/// The bot for a difficulty level; `generic` plays race sets through the
/// generic code too.
pub fn level_bot_with(level: u8, seed: u64, oracle: Option<&Oracle>, generic: bool) -> Option<Box<dyn Bot>> {
    let name = format!("level{level}");
    let fixed: Box<dyn Bot> = match level {
        1 => Box::new(NoisyBot::new(name, 0.04, 0.6, seed).generic(generic)),
        2 => Box::new(NoisyBot::new(name, 0.015, 0.3, seed).generic(generic)),
        3 => Box::new(NoisyBot::new(name, 0.005, 0.1, seed).generic(generic)),
        4 => {
            let search = ByFamily::boxed(
                name,
                TopBot::new("level4".into(), None, LEVEL4_DEPTH, LEVEL4_NET_PLIES).generic(generic),
                (LEVEL4_PLAYOUTS, &[]),
                seed,
                NetPlies { by_rules: &[], others: LEVEL4_GAME_NET_PLIES, without: LEVEL4_WITHOUT_NET },
            );
            Box::new(Blundering::new(search, LEVEL4_BLUNDERS, seed ^ BLUNDER_SEED))
        }
        5 => {
            return Some(ByFamily::boxed(
                name,
                TopBot::new("level5".into(), oracle, LEVEL5_DEPTH, LEVEL5_NET_PLIES)
                    .net_plies_by_rules(LEVEL5_NET_PLIES_BY_RULES)
                    .generic(generic),
                (LEVEL5_PLAYOUTS, LEVEL5_PLAYOUTS_BY_RULES),
                seed,
                NetPlies { by_rules: LEVEL5_GAME_NET_PLIES, others: LEVEL5_GAME_NET_PLIES_OTHERS, without: &[] },
            ))
        }
        _ => return None,
    };
    Some(Laddered::boxed(level, fixed, seed, oracle, generic))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladders_weaken_each_level_below_the_next() {
        for (id, rates) in BLUNDER_LADDERS {
            assert!(rates.windows(2).all(|w| w[0] > w[1]) && rates[3] > 0.0 && rates[0] <= 1.0, "{id}: {rates:?}");
            assert_eq!(ladder_rate(id, 1), Some(rates[0]));
            assert_eq!(ladder_rate(id, 5), None, "level 5 is the ladder's top");
            assert_eq!(ladder_rate(id, 0), None);
        }
        assert_eq!(ladder_rate("finkel", 2), None);
    }
}
