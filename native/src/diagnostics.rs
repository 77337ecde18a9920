//! Parse diagnostics: every line is counted as matched, ignored (known, no event), unknown or damaged.

pub const MAX_SAMPLES: usize = 5;
/// Where the first damaged lines are, for the user to look at.
pub const MAX_DAMAGED_AT: usize = 20;
const MAX_SAMPLE_LEN: usize = 300;

/// How a line was understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineClass {
    /// Produced or completed an event.
    Matched,
    /// A known line that carries no event (banner, phase detail, heap print, application output).
    Ignored,
    /// Not understood.
    Unknown,
    /// Not understood, and it looks like GC data: a parser gap.
    UnknownGc,
    /// No GC record: application output and the like, counted as ignored (and checked for binary
    /// bytes, as unknown lines are: the rules read every other line as GC output).
    Text,
    /// Not text: NUL bytes (a file extended with zeros by a crash) or other binary bytes in the middle
    /// of a text log. Whatever intact line follows a run of NULs on it is still read.
    Damaged,
}

#[derive(Debug, Default)]
pub struct Diagnostics {
    pub lines_total: u64,
    pub lines_matched: u64,
    pub lines_ignored: u64,
    pub lines_unknown: u64,
    pub lines_unknown_gc: u64,
    pub lines_damaged: u64,
    /// (source index, line number in that source) of the first damaged lines.
    pub damaged_at: Vec<(i32, u64)>,
    pub unknown_samples: Vec<String>,
    pub time_backwards: u64,
    pub time_backwards_samples: Vec<String>,
    pub warnings: Vec<String>,
    pub bytes_read: u64,
    pub truncated: bool,
    /// Elements that end a collection in a log from which no event was read (OpenJ9: `<exclusive-end>`,
    /// `<af>`, ...): the parser could not follow the log. `--strict` refuses it.
    pub unread_collections: u64,
}

fn sample(line: &[u8]) -> String {
    let cut = &line[..line.len().min(MAX_SAMPLE_LEN)];
    String::from_utf8_lossy(cut).into_owned()
}

impl Diagnostics {
    pub fn count(&mut self, class: LineClass, line: &[u8]) {
        match class {
            LineClass::Matched => self.lines_matched += 1,
            LineClass::Ignored | LineClass::Text => self.lines_ignored += 1,
            LineClass::Damaged => self.lines_damaged += 1,
            LineClass::Unknown | LineClass::UnknownGc => {
                self.lines_unknown += 1;
                if class == LineClass::UnknownGc {
                    self.lines_unknown_gc += 1;
                }
                // Prefer samples that look like GC data: they are the ones that matter.
                if self.unknown_samples.len() < MAX_SAMPLES {
                    self.unknown_samples.push(sample(line));
                } else if class == LineClass::UnknownGc
                    && self.lines_unknown_gc <= MAX_SAMPLES as u64
                {
                    let slot = (self.lines_unknown_gc - 1) as usize;
                    self.unknown_samples[slot] = sample(line);
                }
            }
        }
    }

    /// Notes where a damaged line is (its count is `count`'s).
    pub fn damaged_at(&mut self, source: i32, line: u64) {
        if self.damaged_at.len() < MAX_DAMAGED_AT {
            self.damaged_at.push((source, line));
        }
    }

    pub fn time_went_backwards(&mut self, line: &[u8]) {
        self.time_backwards += 1;
        if self.time_backwards_samples.len() < MAX_SAMPLES {
            self.time_backwards_samples.push(sample(line));
        }
    }

    pub fn warn(&mut self, message: String) {
        if self.warnings.len() < 50 && !self.warnings.contains(&message) {
            self.warnings.push(message);
        }
    }
}
