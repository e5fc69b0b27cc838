//! Game clocks: each side's remaining time, kept by the server, which is
//! the only judge. A clock starts with the game's first step; the side to
//! play has its clock running; an increment is added after each of a
//! side's turns; a correspondence clock gives a fixed time for each turn.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ur_rules::Side;

use crate::live::side_key;

/// The presets the page offers (`initial_s`, `increment_s`).
pub const PRESETS: [(i64, i64); 4] = [(60, 1), (180, 2), (300, 3), (600, 5)];

/// The longest time a clock may give (a week), and an increment (an hour).
const MAX_INITIAL_S: i64 = 7 * 86_400;
const MAX_INCREMENT_S: i64 = 3_600;

/// A game's time control, as `POST /api/games` takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    pub initial_s: i64,
    pub increment_s: i64,
    /// Correspondence: `initial_s` for every turn, not for the game.
    #[serde(default)]
    pub per_move: bool,
}

impl ClockSpec {
    /// Reads a request's `clock` (`null` or absent: no clock).
    ///
    /// # Errors
    /// Not an object of whole seconds in range, or unknown fields: the message names the fix.
    pub fn parse(v: Option<&Value>) -> Result<Option<ClockSpec>, String> {
        let Some(v) = v.filter(|v| !v.is_null()) else { return Ok(None) };
        let obj = v.as_object().ok_or("clock must be an object such as {\"initial_s\": 300, \"increment_s\": 3}")?;
        if let Some(k) = obj.keys().find(|k| !["initial_s", "increment_s", "per_move"].contains(&k.as_str())) {
            return Err(format!("clock has an unknown field '{k}': give initial_s, increment_s and per_move only"));
        }
        let secs = |k: &str, max: i64, min: i64| -> Result<i64, String> {
            match obj.get(k) {
                None if k == "increment_s" => Ok(0),
                None => Err(format!("clock needs {k}, a whole number of seconds")),
                Some(n) => n
                    .as_i64()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| format!("clock {k} must be a whole number of seconds from {min} to {max}, not {n}")),
            }
        };
        let initial_s = secs("initial_s", MAX_INITIAL_S, 1)?;
        let increment_s = secs("increment_s", MAX_INCREMENT_S, 0)?;
        let per_move = match obj.get("per_move") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(x) => return Err(format!("clock per_move must be true or false, not {x}")),
        };
        if per_move && increment_s != 0 {
            return Err("a clock per move (correspondence) takes no increment: give increment_s 0".into());
        }
        Ok(Some(ClockSpec { initial_s, increment_s, per_move }))
    }

    /// Stored in the games table as this JSON.
    pub fn to_text(self) -> String {
        serde_json::to_string(&self).unwrap_or_default()
    }

    pub fn from_text(text: &str) -> Option<ClockSpec> {
        serde_json::from_str(text).ok()
    }
}

/// The clocks of a game in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub spec: ClockSpec,
    /// Each side's remaining milliseconds as of `since` (`[light, dark]`).
    pub left: [i64; 2],
    /// The side whose clock runs, and since when (ms since the epoch).
    pub running: Option<(Side, i64)>,
}

impl Clock {
    pub fn new(spec: ClockSpec) -> Clock {
        let full = spec.initial_s * 1000;
        Clock { spec, left: [full, full], running: None }
    }

    /// `side`'s remaining milliseconds at `now`.
    pub fn left_at(&self, side: Side, now: i64) -> i64 {
        let left = self.left[side.index()];
        match self.running {
            Some((s, since)) if s == side => left - (now - since).max(0),
            _ => left,
        }
    }

    /// When the running side's time runs out, if a clock runs.
    pub fn flag_at(&self) -> Option<(Side, i64)> {
        self.running.map(|(s, since)| (s, since + self.left[s.index()]))
    }

    /// A step of `mover` made at `now`, after which `next` is to play
    /// (`None`: the game is over). Charges the mover, adds its increment
    /// when its turn ends; answers its remaining milliseconds.
    pub fn step(&mut self, mover: Side, now: i64, next: Option<Side>) -> i64 {
        let m = mover.index();
        self.left[m] = self.left_at(mover, now).max(0);
        let turn_ends = next != Some(mover);
        if turn_ends && next.is_some() {
            if self.spec.per_move {
                let other = crate::live::other(mover);
                self.left[other.index()] = self.spec.initial_s * 1000;
            } else {
                self.left[m] += self.spec.increment_s * 1000;
            }
        }
        self.running = next.map(|s| (s, now));
        self.left[m]
    }

    /// The game ended without a move (resign, draw, flag): clocks stop.
    pub fn stop(&mut self, now: i64) {
        if let Some((s, _)) = self.running {
            self.left[s.index()] = self.left_at(s, now).max(0);
        }
        self.running = None;
    }

    /// `Game.clock` in docs/serve.md, as of `now`.
    pub fn json(&self, now: i64) -> Value {
        json!({
            "initial_s": self.spec.initial_s,
            "increment_s": self.spec.increment_s,
            "per_move": self.spec.per_move,
            "light_ms": self.left_at(Side::Light, now).max(0),
            "dark_ms": self.left_at(Side::Dark, now).max(0),
            "running": self.running.map(|(s, _)| side_key(s)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: Value) -> Result<Option<ClockSpec>, String> {
        ClockSpec::parse(Some(&v))
    }

    #[test]
    fn a_clock_is_read_or_refused_with_its_fix() {
        assert_eq!(
            spec(json!({"initial_s": 300, "increment_s": 3})).unwrap(),
            Some(ClockSpec { initial_s: 300, increment_s: 3, per_move: false })
        );
        assert_eq!(spec(json!(null)).unwrap(), None);
        assert!(spec(json!({"initial_s": 0})).unwrap_err().contains("from 1"));
        assert!(spec(json!({"initial_s": 1.5})).unwrap_err().contains("whole number"));
        assert!(spec(json!({"initial_s": 60, "inc": 1})).unwrap_err().contains("unknown field 'inc'"));
        assert!(spec(json!({"increment_s": 1})).unwrap_err().contains("needs initial_s"));
        assert!(spec(json!({"initial_s": 86400, "increment_s": 5, "per_move": true})).unwrap_err().contains("no increment"));
        assert!(spec(json!("5+3")).unwrap_err().contains("object"));
    }

    #[test]
    fn a_turn_charges_the_mover_and_adds_its_increment_when_it_ends() {
        let mut c = Clock::new(ClockSpec { initial_s: 10, increment_s: 2, per_move: false });
        assert_eq!(c.step(Side::Light, 1_000, Some(Side::Light)), 10_000, "the first step is free and the turn goes on");
        assert_eq!(c.step(Side::Light, 4_000, Some(Side::Dark)), 9_000, "3 s used, 2 s added");
        assert_eq!(c.left_at(Side::Dark, 5_000), 9_000);
        assert_eq!(c.flag_at(), Some((Side::Dark, 14_000)));
        c.stop(6_000);
        assert_eq!((c.left[1], c.running), (8_000, None));
    }

    #[test]
    fn a_correspondence_clock_gives_each_turn_its_time() {
        let mut c = Clock::new(ClockSpec { initial_s: 100, increment_s: 0, per_move: true });
        c.step(Side::Light, 0, Some(Side::Dark));
        c.step(Side::Dark, 90_000, Some(Side::Light));
        assert_eq!(c.left, [100_000, 10_000]);
        c.step(Side::Light, 150_000, Some(Side::Dark));
        assert_eq!(c.left, [40_000, 100_000]);
    }
}
