//! The web server's integration tests.
//! One test binary for the crate: each file below was a binary of its own,
//! and linking each against the whole server made a cold test build slow.

mod common;
mod social;

mod abuse;
mod accounts;
mod custom_rules;
mod expiry;
mod games;
mod hostile;
mod invite;
mod lobby;
mod lobby_postgres;
mod play;
mod ratings;
mod review_api;
mod rules_check;
mod solving;
mod start_position;
mod storage;
