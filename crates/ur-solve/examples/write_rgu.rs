//! Writes a RoyalUr-Java `.rgu` table from our own rules and index, every
//! value 50 %: `cargo run --release -p ur-solve --example write_rgu -- ID OUT.rgu`,
//! ID `finkel` or `blitz`.
//!
//! This is the input of the peer solver JeroenOlieslagers/game_of_ur
//! (`royalur_analysis train-f64 IN.rgu OUT.rgu ... naive`), which takes only
//! the keys of a published table and solves from 50 %; we cannot download
//! those tables, so we write their keys ourselves, to time it against ours.

use std::path::Path;
use std::time::Instant;

use serde_json::{json, Value};
use ur_rules::Rules;
use ur_solve::atomic::write_atomic_with;
use ur_solve::rgu::{self, KeyLayout};
use ur_solve::Indexer;

/// 50 % is 32767.5 steps of 1/65535; rounded half up.
const HALF: u16 = 32768;

/// RoyalUr-Java's settings for the rule set. The peer solver tells the rule
/// sets apart by these fields (`"paths":"bell"`, `"start_pieces":5`) and
/// refuses a table whose flags are not the ones it plays by.
fn game_settings(id: &str, pieces: u8) -> Value {
    let (paths, safe_rosettes, captures_grant_rolls) = match id {
        "finkel" => ("bell", true, false),
        "blitz" => ("masters", false, true),
        _ => {
            eprintln!("write_rgu knows finkel and blitz, not '{id}'");
            std::process::exit(2);
        }
    };
    json!({
        "board_shape": "standard", "paths": paths, "dice": "four_binary", "start_pieces": pieces,
        "safe_rosettes": safe_rosettes, "rosettes_grant_rolls": true, "captures_grant_rolls": captures_grant_rolls,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [id, out] = args.as_slice() else {
        eprintln!("usage: write_rgu ID OUT.rgu (ID finkel or blitz)");
        std::process::exit(2);
    };
    let rules = Rules::builtin(id).expect("a built-in rule set");
    let settings = game_settings(id, rules.pieces());
    let started = Instant::now();
    let keys = rgu::table_keys(&rules, &Indexer::new(&rules).expect("indexable")).expect("encodable");
    let metadata =
        json!({"value_type": "percent16", "author": "ur-solve write_rgu: keys only, every value 50 %", "game_settings": settings});
    let maps = KeyLayout::new(&rules).expect("encodable").map_count();
    let values = vec![HALF; keys.len()];
    write_atomic_with(Path::new(out), |w| rgu::write(w, &metadata, maps, &keys, &values)).expect("table written");
    eprintln!("{id}: {} keys in {maps} maps to {out} in {:.1}s", keys.len(), started.elapsed().as_secs_f64());
}
