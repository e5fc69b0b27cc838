//! Joins two race networks of one rule set into one file: the first judges
//! every position, the second the ending, where each side has at most
//! MAX_LEFT pieces still to bear off (`NetFile::ending`).
//!
//! ```text
//! cargo run --release -p ur-bots --example net_with_ending -- BASE.json ENDING.json MAX_LEFT OUT.json
//! ```

use ur_bots::net::{EndingNet, NetFile};

mod common;

fn main() -> std::process::ExitCode {
    common::exit(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, ending, max_left, out] = args.as_slice() else {
        return Err("usage: net_with_ending BASE.json ENDING.json MAX_LEFT OUT.json".into());
    };
    let read = |path: &str| -> Result<NetFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        NetFile::parse(&text).map_err(|e| format!("{path}: {e}"))
    };
    let (mut file, end) = (read(base)?, read(ending)?);
    if (&end.rules, &end.geometry, end.pieces, &end.encoder) != (&file.rules, &file.geometry, file.pieces, &file.encoder) {
        return Err(format!("{ending} is not a network of {base}'s rules, pieces and encoder").into());
    }
    let max_left = max_left.parse::<u8>().ok().filter(|&n| n >= 1 && n < file.pieces);
    let max_left = max_left.ok_or_else(|| format!("MAX_LEFT must be a whole number from 1 to {}", file.pieces - 1))?;
    file.ending = Some(EndingNet { max_left, net: end.net, training: end.training });
    let text = serde_json::to_string(&file)? + "\n";
    NetFile::parse(&text)?;
    ur_solve::atomic::write_atomic(std::path::Path::new(out), text.as_bytes()).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {base} with {ending} for the ending (each side at most {max_left} pieces to bear off)");
    Ok(())
}
