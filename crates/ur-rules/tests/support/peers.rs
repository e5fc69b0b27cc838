//! The peer library's games (tests/peers/README.md), read for the
//! differential tests of this library and of `ur engine` (which includes
//! this file by path).

use serde::Deserialize;
use ur_rules::Side;

/// One game of the peer library: its rule set, its turns and its winner.
#[derive(Deserialize)]
pub struct PeerGame {
    pub rules: String,
    pub winner: Side,
    pub turns: Vec<PeerTurn>,
}

/// One turn: who rolled what, the legal moves as `[from, to]`, and the move
/// played (none when no move was open).
#[derive(Deserialize)]
pub struct PeerTurn {
    pub player: Side,
    pub roll: u8,
    pub legal: Vec<[u8; 2]>,
    #[serde(rename = "move")]
    pub mv: Option<[u8; 2]>,
}

/// Every game of the peer vectors.
pub fn peer_games() -> Vec<PeerGame> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/peers/royalur-0.0.6-games.jsonl");
    let text = std::fs::read_to_string(path).expect("peer vectors are in tests/peers");
    text.lines().map(|l| serde_json::from_str(l).expect("peer game parses")).collect()
}
