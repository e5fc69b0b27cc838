//! Neural evaluation: a feature encoder per family ([`encode`]), a small
//! network ([`mlp`]), its training by self-play ([`train`]) and the bots
//! that play with it (`net`, `net:N`).
//!
//! Trained networks ship in `crates/ur-bots/weights/net/` and are built
//! into the program ([`builtin`]); `ur train-net` makes them, and
//! [`install`] puts another file's network in place of a built-in one.

pub mod encode;
pub mod game;
pub mod mlp;
pub mod observe;
pub mod train;

use std::sync::{Arc, OnceLock, RwLock};

use serde::{Deserialize, Serialize};
use ur_rules::{Action, AnyAction, AnyGame, Game, Rules, Side, State};

use crate::chance::merged_throws;
use crate::eval::geometry_key;
use crate::expectimax::{LeafValue, Limit, Search};
use crate::{Bot, BotError};
pub use encode::RaceEncoder;
pub use mlp::Mlp;

/// The format tag of a network file.
pub const FORMAT: &str = "ur-net-v1";
/// The encoder a race network reads.
pub const RACE_ENCODER: &str = "race-v1";
/// The encoder a network of the other families reads ([`observe`]).
pub const GAME_ENCODER: &str = "observe-v1";
/// The most inputs an encoding may have (they are built on the stack).
pub const MAX_INPUTS: usize = 512;

/// A network file: the network, what it was trained for and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetFile {
    pub format: String,
    /// The rule set it was trained on.
    pub rules: String,
    /// [`geometry_key`] of those rules (paths, squares, dice, extra
    /// rolls): a network serves rules with the same geometry, any piece count.
    pub geometry: String,
    pub pieces: u8,
    pub encoder: String,
    pub net: Mlp,
    /// How it was trained: settings and the last iterations' reports.
    #[serde(default)]
    pub training: serde_json::Value,
    /// Race networks: a second network for the ending, as GNU Backgammon
    /// keeps one per class of position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<EndingNet>,
}

/// The network that judges race positions in which each side has at most
/// `max_left` of the file's pieces still to bear off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EndingNet {
    pub max_left: u8,
    pub net: Mlp,
    #[serde(default)]
    pub training: serde_json::Value,
}

impl NetFile {
    pub fn new(rules: &Rules, net: Mlp, training: serde_json::Value) -> NetFile {
        NetFile {
            format: FORMAT.into(),
            rules: rules.id().into(),
            geometry: geometry_key(rules),
            pieces: rules.pieces(),
            encoder: RACE_ENCODER.into(),
            net,
            training,
            ending: None,
        }
    }

    /// Reads a network file's text.
    ///
    /// # Errors
    /// Text that is not a network file, or a network that does not fit its encoder.
    pub fn parse(text: &str) -> Result<NetFile, String> {
        let mut file: NetFile = serde_json::from_str(text).map_err(|e| format!("not a network file ({e})"))?;
        if file.format != FORMAT {
            return Err(format!("a network file of format '{}'; this program reads '{FORMAT}'", file.format));
        }
        if file.encoder != RACE_ENCODER && file.encoder != GAME_ENCODER {
            return Err(format!("a network for the '{}' encoder; this program has '{RACE_ENCODER}' and '{GAME_ENCODER}'", file.encoder));
        }
        file.net.check()?;
        if let Some(end) = &file.ending {
            end.net.check()?;
            if file.encoder != RACE_ENCODER || end.net.inputs != file.net.inputs || end.max_left == 0 {
                return Err("an ending network needs a race network with as many inputs, and max_left of 1 or more".into());
            }
        }
        if file.encoder == GAME_ENCODER && file.pieces == 0 {
            // Files written before game networks kept their piece count: the booklet's.
            let game = AnyGame::new(&file.rules, &ur_rules::Options::new(), ur_rules::Side::Light)
                .map_err(|e| format!("a network for '{}', which this program does not know ({e})", file.rules))?;
            file.pieces = game.pieces_per_side();
        }
        if file.net.inputs > MAX_INPUTS {
            return Err(format!("{} inputs; at most {MAX_INPUTS} are supported", file.net.inputs));
        }
        Ok(file)
    }

    /// Whether the network can judge positions of `rules`: the same
    /// geometry with at most the pieces it was trained with (a position
    /// with fewer pieces is judged as one where the rest are borne off).
    pub fn serves(&self, rules: &Rules) -> bool {
        self.encoder == RACE_ENCODER && self.geometry == geometry_key(rules) && !rules.named_pieces() && rules.pieces() <= self.pieces
    }

    /// A network file for a rule set beyond the race, trained on `game`'s
    /// options (with named pieces, it keeps the race rules' key: the dice
    /// and squares it learned).
    pub fn for_game(game: &AnyGame, net: Mlp, training: serde_json::Value) -> NetFile {
        NetFile {
            format: FORMAT.into(),
            rules: ur_rules::Playable::rule_id(game).into(),
            geometry: game.as_race().map_or_else(String::new, |g| geometry_key(g.rules())),
            pieces: game.pieces_per_side(),
            encoder: GAME_ENCODER.into(),
            net,
            training,
            ending: None,
        }
    }

    /// Whether the network can judge `game`'s positions: the rule set and
    /// the piece count it was trained on (with named pieces, the dice and
    /// squares too). A network trained on the full game misjudges small
    /// variants badly (BENCHMARKS.md), so it does not serve them.
    pub fn serves_game(&self, game: &AnyGame) -> bool {
        match game {
            AnyGame::Race(g) if !g.rules().named_pieces() => self.serves(g.rules()),
            _ => {
                self.encoder == GAME_ENCODER
                    && self.rules == ur_rules::Playable::rule_id(game)
                    && self.pieces == game.pieces_per_side()
                    && game.as_race().is_none_or(|g| self.geometry == geometry_key(g.rules()))
                    && observe::Observer::for_game(game).len() == self.net.inputs
            }
        }
    }
}

/// The networks shipped with the program, by rule set.
const BUILTIN: &[(&str, &str)] = &[
    ("finkel", include_str!("../../weights/net/finkel.json")),
    ("regency-murray", include_str!("../../weights/net/regency-murray.json")),
    ("bens-ur", include_str!("../../weights/net/bens-ur.json")),
    ("ludens-akalandung", include_str!("../../weights/net/ludens-akalandung.json")),
    ("vizier-4-pyramids", include_str!("../../weights/net/vizier-4-pyramids.json")),
    ("guard-d6", include_str!("../../weights/net/guard-d6.json")),
    ("ravensburg-1977", include_str!("../../weights/net/ravensburg-1977.json")),
    ("v1-named-birds", include_str!("../../weights/net/v1-named-birds.json")),
];

fn builtin_files() -> &'static [Arc<NetFile>] {
    static FILES: OnceLock<Vec<Arc<NetFile>>> = OnceLock::new();
    FILES.get_or_init(|| {
        BUILTIN.iter().map(|(id, text)| Arc::new(NetFile::parse(text).unwrap_or_else(|e| panic!("weights/net/{id}.json: {e}")))).collect()
    })
}

fn installed() -> &'static RwLock<Vec<Arc<NetFile>>> {
    static INSTALLED: OnceLock<RwLock<Vec<Arc<NetFile>>>> = OnceLock::new();
    INSTALLED.get_or_init(|| RwLock::new(Vec::new()))
}

/// Uses `file`'s network for the rules it serves, ahead of the built-in ones.
pub fn install(file: NetFile) {
    installed().write().expect("the network list is not poisoned").insert(0, Arc::new(file));
}

/// The network for `rules`: an installed one, else a built-in one.
pub fn builtin(rules: &Rules) -> Option<Arc<NetFile>> {
    find(|f| f.serves(rules))
}

/// The network for `game`'s rules, of any family.
pub fn for_game(game: &AnyGame) -> Option<Arc<NetFile>> {
    find(|f| f.serves_game(game))
}

fn find(fits: impl Fn(&NetFile) -> bool) -> Option<Arc<NetFile>> {
    if let Some(f) = installed().read().expect("the network list is not poisoned").iter().find(|f| fits(f)) {
        return Some(f.clone());
    }
    builtin_files().iter().find(|f| fits(f)).cloned()
}

/// A race network ready to judge positions of one rule set.
#[derive(Clone, Debug)]
pub struct RaceNet {
    pub encoder: RaceEncoder,
    pub mlp: Mlp,
    /// The ending's network and the most pieces a side may have left to
    /// bear off (of the network's count) for it to judge.
    ending: Option<(u8, Mlp)>,
    /// The rules' pieces per side.
    pieces: u8,
    /// Pieces the network was trained with beyond the rules' (counted as borne off).
    extra_off: u8,
}

impl RaceNet {
    /// A network over `encoder`'s rules.
    pub fn from_parts(encoder: RaceEncoder, mlp: Mlp) -> RaceNet {
        let pieces = encoder.rules().pieces();
        RaceNet { encoder, mlp, ending: None, pieces, extra_off: 0 }
    }

    /// The network of `file` for `rules` (which it must serve).
    ///
    /// # Panics
    /// Rules the file does not serve.
    pub fn new(rules: &Arc<Rules>, file: &NetFile) -> RaceNet {
        assert!(file.serves(rules), "the network for {} does not serve {}", file.rules, rules.id());
        let trained = if file.pieces == rules.pieces() {
            rules.clone()
        } else {
            Arc::new(rules.with_pieces(file.pieces).expect("the rules took the network's piece count"))
        };
        let encoder = RaceEncoder::new(trained);
        assert_eq!(encoder.len(), file.net.inputs, "the network reads the race encoding of its rules");
        let ending = file.ending.as_ref().map(|e| (e.max_left, e.net.clone()));
        RaceNet { encoder, mlp: file.net.clone(), ending, pieces: rules.pieces(), extra_off: file.pieces - rules.pieces() }
    }

    /// The network for `st`: the ending's once both sides are in it.
    fn mlp_for(&self, st: &State) -> &Mlp {
        match &self.ending {
            Some((max_left, net)) if Side::BOTH.iter().all(|&s| self.pieces - st.off(s) <= *max_left) => net,
            _ => &self.mlp,
        }
    }
}

impl LeafValue for RaceNet {
    #[inline]
    fn value(&self, st: &State) -> f64 {
        let me = st.to_move();
        if st.off(me) == self.pieces {
            return 1.0;
        }
        if st.off(me.other()) == self.pieces {
            return 0.0;
        }
        let mut buf = [0.0f32; MAX_INPUTS];
        let x = &mut buf[..self.encoder.len()];
        if self.extra_off == 0 {
            self.encoder.encode(st, x);
        } else {
            let mut full = *st;
            for side in Side::BOTH {
                full.set_counts(side, st.reserve(side), st.off(side) + self.extra_off);
            }
            self.encoder.encode(&full, x);
        }
        f64::from(self.mlp_for(st).value(x))
    }
}

/// `net` (`net:0`) plays the move the network values most; `net:N`
/// searches `N` more rolls of expectimax with the network at the leaves
/// (`net:50ms` deepens within a time budget).
pub struct NetBot {
    name: String,
    limit: Limit,
    /// The rules and network of the last race game.
    ctx: Option<NetContext>,
    /// The rule set, pieces and network of the last game judged by a game network.
    game_net: Option<(String, u8, game::GameNet)>,
}

/// The rules a [`NetBot`] last played, their network and merged throws.
type NetContext = (Arc<Rules>, RaceNet, Vec<(ur_rules::Throw, f64)>);

impl NetBot {
    /// `arg` is what follows `net:` (none for 0-ply).
    pub fn parse(arg: Option<&str>) -> Option<NetBot> {
        let limit = match arg {
            None => Limit::Depth(1),
            Some(a) if a.ends_with('s') => Limit::parse(a)?,
            Some(a) => Limit::Depth(a.parse::<u32>().ok().filter(|&d| d < crate::expectimax::MAX_DEPTH)? + 1),
        };
        let name = arg.map_or("net".to_string(), |a| format!("net:{a}"));
        Some(NetBot { name, limit, ctx: None, game_net: None })
    }

    /// A bot reporting another name (the levels) searching `plies` rolls beyond the move.
    pub fn with_plies(name: String, plies: u32) -> NetBot {
        NetBot { name, limit: Limit::Depth(plies + 1), ctx: None, game_net: None }
    }

    fn context(&mut self, rules: &Arc<Rules>) -> &NetContext {
        if !self.ctx.as_ref().is_some_and(|c| Arc::ptr_eq(&c.0, rules)) {
            let file = builtin(rules).expect("checked by Bot::check");
            self.ctx = Some((rules.clone(), RaceNet::new(rules, &file), merged_throws(rules)));
        }
        self.ctx.as_ref().expect("just set")
    }

    /// The decision in a game beyond the race: a fixed depth, or the
    /// deepest search a time budget finishes.
    fn decide_other(&mut self, game: &AnyGame) -> AnyAction {
        let (id, pieces) = (ur_rules::Playable::rule_id(game), game.pieces_per_side());
        if self.game_net.as_ref().is_none_or(|(r, n, _)| r != id || *n != pieces) {
            let file = for_game(game).expect("checked by Bot::check");
            let net = game::GameNet { observer: observe::Observer::for_game(game), mlp: file.net.clone() };
            self.game_net = Some((id.to_string(), pieces, net));
        }
        let net = &self.game_net.as_ref().expect("just set").2;
        match self.limit {
            Limit::Depth(d) => game::decide(net, game, d),
            Limit::Time(t) => game::decide_within(net, game, t),
        }
    }

    /// The decision in a race game.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        let limit = self.limit;
        let (rules, net, throws) = self.context(game.rules());
        Search::new(rules, net, throws).decide(game, limit).0
    }
}

impl Bot for NetBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        match game.as_race().filter(|r| !r.rules().named_pieces()) {
            Some(race) => AnyAction::Race(self.decide_race(race)),
            None => self.decide_other(game),
        }
    }

    fn check(&self, game: &AnyGame) -> Result<(), BotError> {
        match for_game(game) {
            Some(_) => Ok(()),
            None => Err(BotError::NoNetwork { rules: ur_rules::Playable::rule_id(game).to_string() }),
        }
    }
}
