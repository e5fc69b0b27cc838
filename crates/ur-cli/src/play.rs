use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct PlayCmd {}

impl PlayCmd {
    pub fn run(self) -> Result<()> {
        anyhow::bail!("not yet implemented")
    }
}
