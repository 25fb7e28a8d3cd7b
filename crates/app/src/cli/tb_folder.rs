//! The tables of a folder that `xiangqi tb verify` and `tb crosscheck` go through.

use anyhow::{bail, Context, Result};
use xiangqi_tablebase::folder::read_folder;
use xiangqi_tablebase::Material;

/// The tables of `dir` named in `material` (every one there when it is empty), the smallest
/// first; an error when a file there is refused.
pub fn chosen_tables(dir: &std::path::Path, material: &[String]) -> Result<Vec<Material>> {
    let folder = read_folder(dir)?;
    for problem in &folder.refused {
        eprintln!("{problem}");
    }
    if !folder.refused.is_empty() {
        bail!(
            "{} files in {} are refused",
            folder.refused.len(),
            dir.display()
        );
    }
    let mut wanted = if material.is_empty() {
        folder.tables.materials().collect::<Vec<_>>()
    } else {
        material
            .iter()
            .map(|name| name.parse::<Material>().with_context(|| name.clone()))
            .collect::<Result<Vec<Material>>>()?
    };
    wanted.sort_by_cached_key(|m| (m.men(), m.to_string()));
    Ok(wanted)
}
