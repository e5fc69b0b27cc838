//! The `ur` command's integration tests.
//! One test binary for the crate: each file below was a binary of its own,
//! and linking each against the whole server made a cold test build slow.

mod common;
mod serving;

mod arena;
mod cli;
mod convert;
mod engine_every_rule_set;
mod engine_peer;
mod engine_protocol;
mod families;
mod messages;
mod output;
mod play_save;
mod position_strings;
mod review;
mod review_html;
mod rule_files;
mod serve_crash;
mod serve_lock;
mod serve_postgres;
mod solve_interrupt;
mod tables;
mod train;
mod tui_tmux;
