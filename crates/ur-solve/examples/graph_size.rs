//! Prints the situations and solve time of a small variant: graph_size ID [NAME=VALUE ...].
use ur_rules::{OptionValue, Options};
use ur_solve::{GraphProgress, GraphSettings, GraphTable};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts: Options = args[1..]
        .iter()
        .map(|a| {
            let (k, v) = a.split_once('=').unwrap();
            (k.to_string(), v.parse::<i64>().map_or(OptionValue::Text(v.to_string()), OptionValue::Int))
        })
        .collect();
    let t = std::time::Instant::now();
    let settings = GraphSettings { max_situations: 30_000_000, ..GraphSettings::default() };
    let r = GraphTable::solve(&args[0], &opts, &settings, &mut |p| match p {
        GraphProgress::Exploring { found, expanded } => eprintln!("found {found} expanded {expanded}"),
        GraphProgress::Sweep { sweep, change } if sweep % 50 == 0 => eprintln!("sweep {sweep} change {change:e}"),
        _ => {}
    });
    match r {
        Ok(t2) => println!("{:?} in {:.1}s", t2.header(), t.elapsed().as_secs_f64()),
        Err(e) => println!("error {e}"),
    }
}
