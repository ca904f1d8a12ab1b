//! `reproduce`: the exact row `generate` writes for one attempt.

use std::io::Write;

use anyhow::Result;

use super::Exit;
use crate::attempt::Generator;
use crate::bank::{BankWriter, Row};
use crate::config::{Dedup, Generation};
use crate::output;
use crate::stats::Work;

/// Writes the CSV header and the row of attempt `index` under `seed` to stdout, as a batch
/// deduplicated by `dedup` writes it.
pub fn reproduce(generation: Generation, dedup: Dedup, seed: u64, index: u64) -> Result<Exit> {
    let row = regenerate(generation, dedup, seed, index);
    let Some(row) = row else {
        crate::message!(
            "sudoku-bank: attempt {index} of seed {seed} yields no puzzle with {}",
            generation.holes.phrase()
        );
        return Ok(Exit::Incomplete);
    };
    let mut writer = BankWriter::new(output::stdout(), &generation, dedup)?;
    writer.write(&row)?;
    writer.finish()?.flush()?;
    Ok(Exit::Success)
}

/// The row attempt `index` under `seed` produces, if it yields a puzzle.
pub fn regenerate(generation: Generation, dedup: Dedup, seed: u64, index: u64) -> Option<Row> {
    crate::with_shape!(generation.size, S => {
        Generator::<S>::for_generation(generation)
            .attempt(seed, index, &mut Work::default())
            .map(|puzzle| Row::new(&puzzle, seed, index).keyed(&puzzle, dedup))
    })
}
