use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct RulesCmd {}

impl RulesCmd {
    pub fn run(self) -> Result<()> {
        anyhow::bail!("not yet implemented")
    }
}
