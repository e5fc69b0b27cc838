//! Differential test: every turn of the peer library's games gives the same
//! legal moves, the same next player and the same winner in this library.

use std::sync::Arc;

use ur_rules::{Game, Move, Phase, Rules, Side};

#[path = "support/peers.rs"]
mod peers;
use peers::peer_games;

#[test]
fn every_peer_turn_matches() {
    let games = peer_games();
    assert_eq!(games.len(), 600);
    let mut turns = 0;
    for (gi, pg) in games.iter().enumerate() {
        let rules = Arc::new(Rules::builtin(&pg.rules).unwrap());
        let mut game = Game::new(rules.clone(), Side::Light);
        for (ti, t) in pg.turns.iter().enumerate() {
            let at = format!("game {gi} ({}) turn {ti}", pg.rules);
            assert_eq!(game.phase(), Phase::Roll, "{at}");
            assert_eq!(game.to_move(), t.player, "{at}: player");
            let raw = rules.raw_for_value(t.roll).unwrap();
            let report = game.roll(raw).unwrap();
            let mut ours: Vec<[u8; 2]> = report.legal.iter().map(|m| [m.from, m.to]).collect();
            ours.sort_unstable();
            assert_eq!(ours, t.legal, "{at}: legal moves");
            if let Some([from, to]) = t.mv {
                game.play(Move::new(from, to)).unwrap();
            }
            turns += 1;
        }
        assert_eq!(game.winner(), Some(pg.winner), "game {gi}: winner");
    }
    assert!(turns > 90_000, "{turns} turns replayed");
}
