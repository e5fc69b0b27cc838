//! Reader for the peer library's `.rgu` solved tables (see `tests/peers/README.md`).
