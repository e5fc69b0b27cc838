use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct EngineCmd {}

impl EngineCmd {
    pub fn run(self) -> Result<()> {
        anyhow::bail!("not yet implemented")
    }
}
