use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct ReplayCmd {}

impl ReplayCmd {
    pub fn run(self) -> Result<()> {
        anyhow::bail!("not yet implemented")
    }
}
