//! jvmlab's native core. GC logs: one call per set of files, paths in, columns and diagnostics out, the GIL
//! released while parsing. Load: one call per run, configuration in, report out, the GIL released while it
//! runs. No panic crosses into Python.

pub mod columns;
pub mod decorators;
pub mod diagnostics;
pub mod jit;
pub mod legacy;
pub mod load;
pub mod names;
pub mod numbers;
pub mod openj9;
pub mod parser;
pub mod source;
pub mod summary;
pub mod table;
pub mod unified;

#[cfg(feature = "python")]
mod python;

use parser::Parser;

/// One input: a file path, and the entry name when the file is a zip archive.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: String,
    pub entry: Option<String>,
}

/// Parses the sources, in order, as one log. I/O errors name the file.
pub fn parse_sources(sources: &[Source]) -> Result<Parser, String> {
    parse_into(Parser::new(), sources)
}

/// Parses the sources, in order, into `p` (a streaming parser keeps only a summary).
pub fn parse_into(mut p: Parser, sources: &[Source]) -> Result<Parser, String> {
    for (i, s) in sources.iter().enumerate() {
        p.start_source(i as i32);
        source::with_reader(&s.path, s.entry.as_deref(), |r| p.parse_reader(r)).map_err(|e| {
            match &s.entry {
                Some(entry) => format!("{} (entry {}): {}", s.path, entry, e),
                None => format!("{}: {}", s.path, e),
            }
        })?;
    }
    p.finish();
    Ok(p)
}
