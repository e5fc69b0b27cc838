use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct BenchCmd {}

impl BenchCmd {
    pub fn run(self) -> Result<()> {
        anyhow::bail!("not yet implemented")
    }
}
