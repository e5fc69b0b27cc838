//! Text boards for the terminal: the race renderer of `ur-rules`.

pub use ur_rules::race::text::{board_key, move_text, path_diagram, position_name, render, side_label};
