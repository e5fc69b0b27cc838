//! Rematches of online games: offered to both players, begun with the
//! sides swapped when both accept. A player's token in the new game is
//! derived from their token in this one, so each socket can tell its own
//! player the new token without the server keeping any token in the clear.

use std::sync::Arc;

use serde_json::{json, Value};
use ur_rules::Side;

use crate::hub::Hub;
use crate::live::{hash_token, other, secret, side_key, Actor, LiveGame, Meta, Refusal, State, Update};

/// Who accepted a rematch, and the game it began.
#[derive(Clone, Debug, Default)]
pub struct Rematch {
    /// The hash of each side's token in the new game, once it accepted (`[light, dark]`).
    accepted: [Option<String>; 2],
    game: Option<String>,
}

impl Rematch {
    /// `Game.rematch`: `null` until someone accepts.
    pub fn json(&self) -> Option<Value> {
        let offered: Vec<&str> =
            [Side::Light, Side::Dark].into_iter().filter(|s| self.accepted[s.index()].is_some()).map(side_key).collect();
        (!offered.is_empty() || self.game.is_some()).then(|| json!({"offered": offered, "game": self.game}))
    }
}

/// A rematch that began.
#[derive(Debug)]
pub struct Started {
    pub id: String,
}

impl Started {
    /// The message for the player who held `token` on `side` of the old game.
    pub fn text(&self, side: Side, token: &str) -> String {
        let token = new_token(token);
        let url = format!("/#/game/{}?token={token}", self.id);
        json!({"t": "rematch", "id": self.id, "token": token, "seat": side_key(other(side)), "url": url}).to_string()
    }
}

/// A player's token in the rematch.
fn new_token(token: &str) -> String {
    hash_token(&format!("rematch:{token}"))
}

impl LiveGame {
    /// `{"t":"rematch","accept":B}` from the player holding `token`: the
    /// answer for that socket (the new game once it began), if any.
    pub async fn rematch(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        actor: Actor,
        token: Option<&str>,
        accept: bool,
    ) -> Result<Option<String>, Refusal> {
        let (Actor::Seat(side), Some(token)) = (actor, token) else {
            return Err(Refusal::new("watcher", "only the players of an online game are offered a rematch"));
        };
        if self.meta.mode != "online" {
            return Err(Refusal::new("no_rematch", "a rematch is for online games: start a new game against the bot"));
        }
        let mut st = self.state.lock().await;
        if st.status == "playing" {
            return Err(Refusal::new("no_rematch", "the game is still being played: a rematch is offered when it ends"));
        }
        if let Some(id) = &st.rematch.game {
            return Ok(Some(Started { id: id.clone() }.text(side, token)));
        }
        st.rematch.accepted[side.index()] = accept.then(|| hash_token(&new_token(token)));
        if st.rematch.accepted.iter().all(Option::is_some) {
            let id = self.begin_rematch(hub, &st).await?;
            st.rematch.game = Some(id.clone());
            self.send(Update::Rematch(Arc::new(Started { id })));
        }
        self.tell_status(hub, &mut st);
        Ok(None)
    }

    /// Stores the new game, sides swapped, and puts it in play.
    async fn begin_rematch(&self, hub: &Arc<Hub>, st: &State) -> Result<String, Refusal> {
        let [light, dark] = st.rematch.accepted.clone();
        let new =
            ur_session::NewGame { rules: self.meta.new.rules.clone(), options: self.meta.new.options.clone(), first: self.meta.new.first };
        let meta = Meta {
            id: secret(),
            new,
            mode: "online".into(),
            bots: [false, false],
            bot: None,
            tokens: [dark, light],
            start: self.meta.start.clone(),
            clock: self.meta.clock,
            players: Default::default(),
        };
        let failed = |e: String| Refusal::new("storage", format!("the rematch could not be started: {e}"));
        let mut session = hub.session(&meta.new).map_err(failed)?;
        if let Some(text) = &meta.start {
            session.set_text(text).map_err(|e| failed(e.to_string()))?;
        }
        let row = crate::http::game_row(&meta);
        let id = meta.id.clone();
        let game = hub.create(row, meta, session).await.map_err(|e| failed(e.to_string()))?;
        // The same accounts, sides swapped, and rated if the first game was.
        let [light, dark] = self.meta.players.get();
        let rated = self.meta.players.rated();
        if light.is_some() || dark.is_some() || rated {
            crate::accounts::link_new_game(hub, &game, [dark, light], rated).await.map_err(failed)?;
        }
        Ok(id)
    }
}
