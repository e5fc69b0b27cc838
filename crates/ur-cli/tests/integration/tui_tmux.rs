//! The full-screen `ur play` driven in tmux as a player drives it: keys
//! sent with `send-keys`, the screen read with `capture-pane`, polling
//! until the expected text appears (a generous timeout, never a timed
//! assertion). Complete games against a bot on Finkel, a booklet race set
//! and one game of each other family, with the screens checked at a roll,
//! a choice, a hint and the end.
//!
//! Skipped (with a message) when tmux is not installed, unless
//! `UR_REQUIRE_TMUX=1` (the test command installs tmux and sets it).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ur");
const PATIENCE: Duration = Duration::from_secs(180);

/// Whether tmux runs here; the test command (`UR_REQUIRE_TMUX=1`) fails
/// instead of skipping.
fn have_tmux() -> bool {
    let ok = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
    assert!(ok || std::env::var("UR_REQUIRE_TMUX").as_deref() != Ok("1"), "UR_REQUIRE_TMUX=1 but tmux does not run");
    ok
}

/// A tmux server of its own running one `ur play`.
struct Pane {
    socket: String,
}

impl Pane {
    fn start(name: &str, args: &[&str]) -> Pane {
        Pane::start_then(name, args, "sleep 600")
    }

    /// As [`Pane::start`], with `after` run in the pane once `ur` exits.
    fn start_then(name: &str, args: &[&str], after: &str) -> Pane {
        Pane::start_with(name, "", args, after)
    }

    /// As [`Pane::start_then`], with `before` (`cd DIR;`, `VAR=VALUE` for `env`) put first.
    fn start_with(name: &str, before: &str, args: &[&str], after: &str) -> Pane {
        let socket = format!("ur-tui-test-{}-{name}", std::process::id());
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let command =
            format!("{before} env -u NO_COLOR UR_TUI_TEST_PANIC=1 '{BIN}' play {}; echo \"EXITED $?\"; {after}", quoted.join(" "));
        let ok = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "32", "-s", "t", "sh", "-c", &command])
            .status()
            .expect("tmux runs");
        assert!(ok.success(), "tmux new-session failed");
        Pane { socket }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux").args(["-L", &self.socket, "capture-pane", "-p", "-t", "t"]).output().expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The process id of the `ur` the pane runs.
    fn ur_pid(&self) -> i32 {
        let out = Command::new("tmux").args(["-L", &self.socket, "display", "-p", "-t", "t", "#{pane_pid}"]).output().unwrap();
        let shell = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let out = Command::new("ps").args(["-o", "pid=", "--ppid", &shell]).output().expect("ps runs");
        let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
        pid.parse().unwrap_or_else(|_| panic!("no child of the pane's shell {shell}: {pid:?}"))
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["-L", &self.socket, "send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(Command::new("tmux").args(&args).status().expect("tmux runs").success());
    }

    /// Polls the screen until `ok` holds; panics with the last screen after [`PATIENCE`].
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            if start.elapsed() > PATIENCE {
                panic!("waited {PATIENCE:?} for {what}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).status();
    }
}

/// The step counter of the status line.
fn step(screen: &str) -> Option<usize> {
    let at = screen.rfind("· step ")?;
    screen[at + "· step ".len()..].split_whitespace().next()?.parse().ok()
}

fn at_roll(s: &str) -> bool {
    s.contains("press Space to roll")
}

fn at_decision(s: &str) -> bool {
    s.contains("Enter plays (1-") || s.contains(": choose 1-")
}

fn at_end(s: &str) -> bool {
    s.contains(" The end ")
}

/// The human's turn (or the end) after the step `before`.
fn settled(s: &str, before: Option<usize>) -> bool {
    at_end(s) || (step(s) != before && (at_roll(s) || at_decision(s)))
}

/// What a game's screens showed.
#[derive(Default, Debug)]
struct Seen {
    rolls: usize,
    decisions: usize,
    choices: Vec<String>,
    hint: Option<String>,
}

/// Plays the human side to the end: Space at a roll, Enter (the first
/// line) at a decision, a hint at the first decision; checks each screen.
fn play_to_end(pane: &Pane, hint_says: &str) -> (Seen, String) {
    let mut seen = Seen::default();
    let mut s = pane.wait("the first screen", |s| at_roll(s) || at_decision(s) || at_end(s));
    for _ in 0..5000 {
        if at_end(&s) {
            return (seen, s);
        }
        let before = step(&s);
        if at_roll(&s) {
            pane.keys(&["Space"]);
            s = pane.wait("the roll", |s| settled(s, before));
            if seen.rolls == 0 {
                // The throw is in the log, in the game's words.
                assert!(s.contains("throws") || s.contains("rolls"), "no throw in the log:\n{s}");
            }
            seen.rolls += 1;
            continue;
        }
        assert!(at_decision(&s), "neither a roll nor a decision:\n{s}");
        if s.contains("Choose (number") {
            seen.choices.push(s.clone());
        }
        if seen.hint.is_none() {
            pane.keys(&["h"]);
            let h = pane.wait("a hint", |s| s.contains(" Hint "));
            assert!(h.contains(hint_says), "the hint does not say '{hint_says}':\n{h}");
            seen.hint = Some(h);
            pane.keys(&["Escape"]);
            s = pane.wait("the hint to close", |s| !s.contains(" Hint "));
        }
        // The highlighted line is the first; its destination is framed.
        assert!(s.contains(">1 "), "no cursor on line 1:\n{s}");
        pane.keys(&["Enter"]);
        s = pane.wait("the move", |s| settled(s, before));
        seen.decisions += 1;
    }
    panic!("the game did not end; the screen:\n{s}");
}

fn save_path(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.json"));
    (dir, path)
}

/// A complete game against a bot; returns what was seen and the end screen.
fn complete_game(name: &str, rules: &str, seed: &str, extra: &[&str], hint_says: &str) -> (Seen, String) {
    let (_dir, path) = save_path(name);
    let save = path.to_str().unwrap();
    let mut args = vec!["--rules", rules, "--seed", seed, "--no-animation", "--save", save];
    args.extend_from_slice(extra);
    let pane = Pane::start(name, &args);
    let (seen, end) = play_to_end(&pane, hint_says);
    assert!(end.contains("wins"), "{rules}: no winner at the end:\n{end}");
    assert!(end.contains("You win!") || end.contains("You lose."), "{rules}:\n{end}");
    assert!(end.contains("Game saved to"), "{rules}:\n{end}");
    assert!(seen.rolls > 3 && seen.decisions > 3, "{rules}: {seen:?}");
    pane.keys(&["q"]);
    let after = pane.wait("the app to exit", |s| s.contains("EXITED"));
    assert!(after.contains("EXITED 0"), "{rules}:\n{after}");
    assert!(after.contains("wins."), "{rules}: the result is printed after the app:\n{after}");
    // The saved record replays to the same end.
    let out = Command::new(BIN).args(["replay", save]).output().unwrap();
    assert!(out.status.success(), "{rules}: {}", String::from_utf8_lossy(&out.stderr));
    (seen, end)
}

#[test]
fn finkel_against_a_bot_to_the_end() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let (seen, end) = complete_game("finkel", "finkel", "5", &[], "win chance");
    assert!(seen.hint.unwrap().contains("estimates"), "the hint says where its numbers come from");
    assert!(end.contains("Your play, judged by"), "the summary of the human's play:\n{end}");
}

#[test]
fn a_booklet_race_set_against_a_bot_to_the_end() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let (_, end) = complete_game("bell", "regency-bell", "2", &[], "win chance");
    assert!(end.contains("Pot"), "Bell's pot at the end:\n{end}");
    assert!(end.contains("Your play, judged by"), "{end}");
}

#[test]
fn bens_ur_against_a_bot_to_the_end() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    complete_game("bens", "bens-ur", "4", &[], "network's estimates");
}

#[test]
fn akalandung_against_a_bot_to_the_end_with_its_choices() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    // A replay the player may decline: a choice in words.
    let options = ["--option", "replay_optional=true"];
    let (seen, _) = complete_game("akalandung", "ludens-akalandung", "3", &options, "network's estimates");
    let choice = seen.choices.first().unwrap_or_else(|| panic!("no choice was asked: {seen:?}"));
    assert!(["Roll again", "End the turn", "Do not form the Twins"].iter().any(|c| choice.contains(c)), "{choice}");
}

#[test]
fn a_tower_game_against_a_bot_to_the_end_with_its_choices() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let (seen, _) = complete_game("vizier", "vizier-4-pyramids", "2", &[], "network's estimates");
    let choice = seen.choices.first().unwrap_or_else(|| panic!("no choice was asked: {seen:?}"));
    assert!(choice.contains("Throw again") && choice.contains("Move 5"), "{choice}");
}

#[test]
fn a_game_from_a_position_string_opens_there_and_plays_to_the_end() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    // Light: one piece off, three on the board, three in reserve; Dark: two on the board.
    let pane = Pane::start("from", &["--rules", "finkel", "--seed", "3", "--no-animation", "--from", "l:469.1,2d"]);
    let first = pane.wait("the first screen", at_roll);
    assert!(first.contains("reserve ○○○ 3  off 1") && first.contains("reserve ●●●●● 5  off 0"), "{first}");
    assert!(first.contains("Light: your turn") && step(&first) == Some(0), "{first}");
    let (_, end) = play_to_end(&pane, "win chance");
    assert!(end.contains("wins"), "no winner at the end:\n{end}");
}

#[test]
fn keys_take_back_rules_help_and_quit() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let (_dir, path) = save_path("quit");
    let save = path.to_str().unwrap();
    let pane = Pane::start("keys", &["--seed", "8", "--no-animation", "--save", save]);
    let mut s = pane.wait("the first roll", at_roll);
    // Play a few turns, then take back.
    let mut decided = 0;
    while decided < 3 {
        let before = step(&s);
        pane.keys(&[if at_roll(&s) { "Space" } else { "Enter" }]);
        if at_decision(&s) {
            decided += 1;
        }
        s = pane.wait("a step", |s| settled(s, before));
    }
    pane.keys(&["u"]);
    s = pane.wait("the take-back", |s| s.contains("Taken back to your last decision"));
    assert!(at_decision(&s) && s.contains("(took back"), "{s}");
    pane.keys(&["?"]);
    pane.wait("the keys", |s| s.contains(" Keys ") && s.contains("take back"));
    // Wait for each Escape to be read before the next key: an Escape
    // followed at once by a key reads as Alt and that key.
    pane.keys(&["Escape"]);
    pane.wait("the board again", |s| !s.contains(" Keys "));
    pane.keys(&["p"]);
    s = pane.wait("the paths", |s| s.contains(" Paths "));
    assert!(s.contains("d1 c1 b1 a1 a2"), "Finkel's light path:\n{s}");
    pane.keys(&["Escape"]);
    pane.wait("the board again", |s| !s.contains(" Paths "));
    pane.keys(&["R"]);
    s = pane.wait("the rules", |s| s.contains(" Rules "));
    assert!(s.contains("Finkel"), "{s}");
    pane.keys(&["Down", "Down", "Escape"]);
    pane.wait("the board again", |s| !s.contains(" Rules "));
    pane.keys(&["q"]);
    pane.wait("the question", |s| s.contains("Leave this unfinished game?"));
    pane.keys(&["n"]);
    pane.wait("the game again", |s| !s.contains("Leave this unfinished game?"));
    pane.keys(&["q"]);
    pane.wait("the question", |s| s.contains("Leave this unfinished game?"));
    pane.keys(&["y"]);
    let after = pane.wait("the app to exit", |s| s.contains("EXITED"));
    assert!(after.contains("Game left unfinished.") && after.contains("Game saved to"), "{after}");
    // It resumes, and Ctrl-C leaves at once, saving.
    let pane = Pane::start("resume", &["--resume", save, "--seed", "9", "--no-animation", "--save", save]);
    pane.wait("the resumed game", |s| at_roll(s) || at_decision(s));
    pane.keys(&["C-c"]);
    let after = pane.wait("the app to exit", |s| s.contains("EXITED"));
    assert!(after.contains("EXITED 130") && after.contains("Interrupted: the game so far is saved"), "{after}");
    assert!(std::fs::read_to_string(&path).unwrap().contains("finkel"));
}

#[test]
fn a_small_window_is_told_so_and_redraws_when_it_grows() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let pane = Pane::start("small", &["--seed", "1", "--no-animation"]);
    pane.wait("the board", at_roll);
    let resize = |w: &str, h: &str| {
        let ok = Command::new("tmux").args(["-L", &pane.socket, "resize-window", "-t", "t", "-x", w, "-y", h]).status().unwrap();
        assert!(ok.success());
    };
    resize("60", "16");
    pane.wait("the size warning", |s| s.contains("the game needs at least"));
    resize("80", "24");
    let s = pane.wait("the board again", at_roll);
    assert!(s.contains('✿'), "{s}");
    pane.keys(&["q", "y"]);
    pane.wait("the app to exit", |s| s.contains("EXITED 0"));
}

#[test]
fn a_crash_gives_the_terminal_back() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    // Test builds (debug assertions) crash on '!' when UR_TUI_TEST_PANIC is set.
    if !cfg!(debug_assertions) {
        eprintln!("a release build has no crash on demand: skipped");
        return;
    }
    let pane = Pane::start("panic", &["--seed", "1", "--no-animation"]);
    pane.wait("the board", at_roll);
    pane.keys(&["!"]);
    let after = pane.wait("the app to exit", |s| s.contains("EXITED"));
    // The normal screen is back (no board), and lines start at the left
    // edge again (raw mode is off).
    assert!(after.contains("a crash asked for by UR_TUI_TEST_PANIC"), "{after}");
    assert!(!after.contains("press Space to roll"), "{after}");
    assert!(after.lines().any(|l| l.starts_with("EXITED 101")), "{after}");
    let shown =
        Command::new("tmux").args(["-L", &pane.socket, "display", "-p", "-t", "t", "#{cursor_flag} #{alternate_on}"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&shown.stdout).trim(), "1 0", "the cursor shown, the alternate screen left");
}

#[test]
fn a_hint_from_a_solved_table_says_so() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("f2.urt");
    let table = table.to_str().unwrap();
    let out = Command::new(BIN).args(["solve", "finkel", "--pieces", "2", "--out", table]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pane = Pane::start("table", &["--pieces", "2", "--table", table, "--level", "5", "--seed", "2", "--no-animation"]);
    let s = pane.wait("the first roll", at_roll);
    let before = step(&s);
    pane.keys(&["Space"]);
    pane.wait("a decision", |s| settled(s, before) && at_decision(s));
    pane.keys(&["h"]);
    let h = pane.wait("a hint", |s| s.contains(" Hint "));
    // The hint sits beside the board, in a narrower box: its words wrap.
    assert!(h.contains("the solved") && h.contains("table: exact") && h.contains(" %"), "{h}");
}

/// The terminal's line discipline after `ur` exits: `STTY icanon` and
/// `STTY echo` when it was given back, `-icanon`/`-echo` when left raw.
const STTY: &str = "for f in $(stty -a); do case $f in icanon|-icanon|echo|-echo) echo \"STTY $f\";; esac; done; sleep 600";

/// The number of steps in a saved record.
fn saved_steps(path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r: serde_json::Value = serde_json::from_str(&text).unwrap();
    r.get("actions").or_else(|| r.get("steps")).and_then(serde_json::Value::as_array).map_or(0, Vec::len)
}

#[test]
fn the_game_is_saved_as_it_goes_and_kept_on_sigterm_and_sighup() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    for (signal, name, code) in [(libc::SIGTERM, "term", 143), (libc::SIGHUP, "hup", 129)] {
        let (_dir, path) = save_path(name);
        let save = path.to_str().unwrap();
        let pane = Pane::start_then(name, &["--seed", "8", "--no-animation", "--save", save], STTY);
        let mut s = pane.wait("the first roll", at_roll);
        let mut decided = 0;
        while decided < 3 {
            let before = step(&s);
            pane.keys(&[if at_roll(&s) { "Space" } else { "Enter" }]);
            if at_decision(&s) {
                decided += 1;
            }
            s = pane.wait("a step", |s| settled(s, before));
        }
        // The game goes on, and the file already holds every step shown.
        let shown = step(&s).unwrap();
        assert_eq!(saved_steps(&path), shown, "{name}: the record as it stands:\n{s}");
        // SAFETY: sending a signal to a process this test started.
        unsafe { libc::kill(pane.ur_pid(), signal) };
        // Both flags: the shell prints them one line at a time.
        let after = pane.wait("the app to exit", |s| s.matches("STTY ").count() >= 2);
        assert!(after.contains(&format!("EXITED {code}")), "{name}:\n{after}");
        assert!(after.contains("STTY icanon") && after.contains("STTY echo"), "{name}: the terminal is left raw:\n{after}");
        let shown_flags =
            Command::new("tmux").args(["-L", &pane.socket, "display", "-p", "-t", "t", "#{cursor_flag} #{alternate_on}"]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&shown_flags.stdout).trim(), "1 0", "{name}: the cursor shown, the alternate screen left");
        assert_eq!(saved_steps(&path), shown, "{name}");
        // Resumed, the log shows the moves so far and the game saves to the same file.
        let pane = Pane::start(&format!("{name}-resume"), &["--resume", save, "--seed", "9", "--no-animation"]);
        let s = pane.wait("the resumed game", |s| at_roll(s) || at_decision(s));
        assert!(s.contains("throws") && !s.contains("goes on after"), "{name}: the log is rebuilt:\n{s}");
        assert_eq!(step(&s), Some(shown), "{s}");
        let before = step(&s);
        pane.keys(&[if at_roll(&s) { "Space" } else { "Enter" }]);
        let s = pane.wait("a step", |s| settled(s, before));
        assert_eq!(saved_steps(&path), step(&s).unwrap(), "{name}: saved to the resumed file");
    }
}

/// The screen's lines.
fn lines(screen: &str) -> Vec<&str> {
    screen.lines().collect()
}

/// The row of the first line containing `text`.
fn line_of(screen: &str, text: &str) -> usize {
    lines(screen).iter().position(|l| l.contains(text)).unwrap_or_else(|| panic!("no line has '{text}':\n{screen}"))
}

/// The rows at which the board's row labels stand at the left edge (`3│`), in the order given.
fn row_label_rows(screen: &str, labels: &[&str]) -> Vec<usize> {
    labels
        .iter()
        .map(|l| lines(screen).iter().position(|x| x.starts_with(&format!("{l}│"))).unwrap_or_else(|| panic!("no row {l}:\n{screen}")))
        .collect()
}

#[test]
fn the_board_has_coordinates_and_turns_round_for_dark() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    // As light: dark's line above the board, a to h left to right along the bottom edge, rows 3 to 1 downwards.
    let pane = Pane::start("coords-light", &["--rules", "finkel", "--seed", "3", "--no-animation"]);
    let s = pane.wait("the first screen", at_roll);
    let edge = lines(&s)[line_of(&s, "──a──")];
    assert!(edge.find("──a──") < edge.find("──h──"), "{s}");
    let rows = row_label_rows(&s, &["3", "2", "1"]);
    assert!(rows[0] < rows[1] && rows[1] < rows[2], "{s}");
    assert!(line_of(&s, "Dark (") < rows[0] && line_of(&s, "Light (you)") > rows[2], "{s}");
    // As dark: the board turned round, dark's side nearest.
    let pane = Pane::start("coords-dark", &["--rules", "finkel", "--seed", "3", "--no-animation", "--as", "dark"]);
    let s = pane.wait("the first screen", |s| at_roll(s) || at_decision(s));
    let edge = lines(&s)[line_of(&s, "──a──")];
    assert!(edge.find("──h──") < edge.find("──a──"), "{s}");
    let rows = row_label_rows(&s, &["1", "2", "3"]);
    assert!(rows[0] < rows[1] && rows[1] < rows[2], "{s}");
    assert!(line_of(&s, "Light (") < rows[0] && line_of(&s, "Dark (you)") > rows[2], "{s}");
    // f turns it back.
    pane.keys(&["f"]);
    let s = pane.wait("the board turned back", |s| s.lines().any(|l| l.starts_with("3│")) && line_of(s, "Dark (you)") < 5);
    let rows = row_label_rows(&s, &["3", "2", "1"]);
    assert!(rows[0] < rows[1] && rows[1] < rows[2], "{s}");
}

#[test]
fn the_save_new_game_and_copy_keys() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let before = format!("cd '{}';", dir.path().display());
    let pane =
        Pane::start_with("keys2", &before, &["--rules", "finkel", "--seed", "3", "--no-animation", "--first", "rolloff"], "sleep 600");
    let s = pane.wait("the first screen", |s| at_roll(s) || at_decision(s));
    // The roll-off is in the log.
    assert!(s.contains("Roll-off:"), "{s}");
    // The copy key: the position string in the status line and in the terminal's clipboard (tmux keeps it as a buffer).
    assert!(Command::new("tmux").args(["-L", &pane.socket, "set", "-g", "set-clipboard", "on"]).status().unwrap().success());
    pane.keys(&["c"]);
    let s = pane.wait("the position string", |s| s.contains("Position: "));
    let shown = s[s.find("Position: ").unwrap() + "Position: ".len()..].split_whitespace().next().unwrap().to_string();
    assert!(shown.starts_with("l:") || shown.starts_with("d:"), "{s}");
    let buffer = || {
        let out = Command::new("tmux").args(["-L", &pane.socket, "show-buffer"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let start = Instant::now();
    while buffer() != shown && start.elapsed() < PATIENCE {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(buffer(), shown, "the clipboard has the position string");
    // Play a few steps, then save: a new file in the current folder, replayable.
    for _ in 0..3 {
        let s = pane.screen();
        let before = step(&s);
        pane.keys(&[if at_roll(&s) { "Space" } else { "Enter" }]);
        pane.wait("a step", |s| settled(s, before));
    }
    pane.keys(&["s"]);
    let s = pane.wait("saved", |s| s.contains("Saved to"));
    let saved = dir.path().join("ur-finkel-1.json");
    assert!(s.contains("ur-finkel-1.json") && saved.is_file(), "{s}");
    let steps = saved_steps(&saved);
    assert!(steps >= 1, "{steps}");
    // The new-game key asks first, then starts over; the saved game stays as it was.
    pane.keys(&["n"]);
    pane.wait("the question", |s| s.contains(" New game? "));
    pane.keys(&["y"]);
    // (The bot may have made the new game's first steps already.)
    let s = pane.wait("a new game", |s| s.contains("(a new game)") && s.contains("the last one stays in"));
    assert!(s.contains("the last one stays in ur-finkel-1.json"), "{s}");
    assert_eq!(saved_steps(&saved), steps);
}

#[test]
fn the_hint_sits_beside_the_board_and_the_log_keeps_whole_lines() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let pane = Pane::start("hint-side", &["--rules", "finkel", "--seed", "5", "--no-animation"]);
    let mut s = pane.wait("the first screen", |s| at_roll(s) || at_decision(s));
    for _ in 0..200 {
        if at_decision(&s) {
            break;
        }
        let before = step(&s);
        pane.keys(&["Space"]);
        s = pane.wait("a step", |s| settled(s, before));
    }
    pane.keys(&["h"]);
    let s = pane.wait("the hint", |s| s.contains(" Hint "));
    let top = lines(&s)[line_of(&s, " Hint ")];
    let edge = lines(&s)[line_of(&s, "──h──")];
    let board_right = edge[..edge.find("──h──").unwrap()].chars().count() + 5;
    assert!(top[..top.find("┌ Hint").unwrap()].chars().count() >= board_right, "the hint is beside the board:\n{s}");
    // The board is still all there.
    assert!(s.contains("──h──") && s.lines().any(|l| l.starts_with("1│")), "{s}");
}

#[test]
fn a_tower_game_s_log_wraps_with_nothing_cut_and_its_key_names_the_sides() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let pane = Pane::start("tower-log", &["--rules", "ravensburg-1977", "--seed", "2", "--no-animation"]);
    let mut s = pane.wait("the first screen", |s| at_roll(s) || at_decision(s));
    assert!(s.contains("promoted (Player A)") && s.contains("promoted (Player B)"), "{s}");
    for _ in 0..60 {
        let before = step(&s);
        pane.keys(&[if at_roll(&s) { "Space" } else { "Enter" }]);
        s = pane.wait("a step", |s| settled(s, before));
        if at_end(&s) {
            break;
        }
        let rows = log_rows(&s);
        // The log wraps one column short of the box: a row that fills it was cut at the frame.
        for (i, (text, width)) in rows.iter().enumerate() {
            assert!(text.chars().count() < *width, "row {i} is cut:\n{s}");
        }
        assert!(!rows.is_empty(), "{s}");
    }
}

/// The move log's rows (trimmed at the right) with the box's inner width.
fn log_rows(screen: &str) -> Vec<(String, usize)> {
    let ls = lines(screen);
    let top = line_of(screen, "┌ Moves");
    let x = ls[top][..ls[top].find("┌ Moves").unwrap()].chars().count();
    let mut out = Vec::new();
    for l in &ls[top + 1..] {
        let row: Vec<char> = l.chars().skip(x).collect();
        if row.first() != Some(&'│') {
            break;
        }
        let inner: String = row[1..row.len().saturating_sub(1)].iter().collect();
        out.push((inner.trim_end().to_string(), row.len().saturating_sub(2)));
    }
    out
}

#[test]
fn term_dumb_plays_in_lines_and_the_c_locale_draws_in_ascii() {
    if !have_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let pane = Pane::start_with("dumb", "TERM=dumb", &["--rules", "finkel", "--seed", "3", "--no-animation"], "sleep 600");
    let s = pane.wait("the line mode", |s| s.contains("Light") && !s.contains("? keys"));
    assert!(!s.contains("? keys · step"), "no full screen under TERM=dumb:\n{s}");
    let pane = Pane::start_with("c-locale", "LC_ALL=C", &["--rules", "finkel", "--seed", "3", "--no-animation"], "sleep 600");
    let s = pane.wait("the first screen", at_roll);
    assert!(s.contains("reserve xxxxxxx 7") && s.contains("reserve ooooooo 7"), "{s}");
    assert!(!s.contains('│') && !s.contains('○'), "ASCII only under LC_ALL=C:\n{s}");
}
