//! What the JVM says of itself: `<verbosegc version=...>` and the `<initialized>` stanza (GC policy, heap
//! sizes, `<system>`, `<vmargs>`), into the log's header as HotSpot's start-up lines are.

use super::element::Tag;
use crate::diagnostics::LineClass;
use crate::table::Table;

#[derive(Default)]
pub struct State {
    /// Inside `<initialized>`.
    inside: bool,
    /// The `-` options of `<vmargs>`, space-separated: the header's `command_line`.
    command_line: Vec<u8>,
}

/// `-Xgcpolicy:NAME` -> the collector column's value.
const POLICIES: [&str; 6] = [
    "gencon",
    "balanced",
    "optavgpause",
    "optthruput",
    "metronome",
    "nogc",
];

/// The collector a `gcPolicy` value names; `J9` for a policy not in POLICIES.
pub fn collector_of_policy(value: &[u8]) -> &'static str {
    let name = value.strip_prefix(b"-Xgcpolicy:").unwrap_or(value);
    POLICIES
        .iter()
        .find(|p| p.as_bytes() == name)
        .copied()
        .unwrap_or("J9")
}

/// `R28_Java8_GA_...` -> "8", `R27_Java727_SR1_...` -> "7" (Java 7 release 27), `R26_Java626_...` -> "6".
fn jdk_of_version(version: &[u8]) -> Option<String> {
    let at = memchr::memmem::find(version, b"_Java")? + 5;
    let digits: Vec<u8> = version[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .copied()
        .collect();
    let major = match digits.len() {
        1 | 2 => &digits[..],
        3 => &digits[..1], // release digits follow the Java version
        _ => return None,
    };
    Some(String::from_utf8_lossy(major).into_owned())
}

impl State {
    /// `<verbosegc version="...">`: the build, and the Java version where it names one.
    pub fn verbosegc(&mut self, t: &mut Table, tag: &Tag) {
        if let Some(v) = tag.attr(b"version") {
            t.fmt.add_header("verbosegc_version", v);
            if t.fmt.jdk_version.is_none() {
                t.fmt.jdk_version = jdk_of_version(v);
            }
        }
    }

    /// The tags of `<initialized>`; None for any other tag.
    pub fn tag(&mut self, t: &mut Table, tag: &Tag) -> Option<LineClass> {
        if tag.name == b"initialized" {
            if tag.end {
                self.close(t);
            } else {
                // The GC's start-up is the stanza of id 1; a rotated file opens with a copy of a later id
                // stamped when the file was opened.
                if tag.int(b"id") == Some(1) && t.fmt.first_time_s == Some(0.0) {
                    t.fmt.jvm_start_seen = true;
                }
                self.inside = !tag.empty;
            }
            return Some(LineClass::Ignored);
        }
        if !self.inside {
            return None;
        }
        if super::is_top_level(tag.name) {
            // `</initialized>` never came (a log trimmed by hand, cut and restarted): the stanza ends at the
            // first element of the log's body, which is read as such.
            self.close(t);
            t.diag.warn(format!(
                "the <initialized> header is not closed: it ends at the first <{}> (the header's \
                 figures before it are kept)",
                String::from_utf8_lossy(tag.name)
            ));
            return None;
        }
        match tag.name {
            b"attribute" => self.attribute(t, tag),
            b"vmarg" => {
                if let Some(name) = tag.attr(b"name").filter(|n| n.starts_with(b"-")) {
                    if !self.command_line.is_empty() {
                        self.command_line.push(b' ');
                    }
                    self.command_line.extend_from_slice(name);
                }
            }
            b"system" | b"vmargs" | b"region" | b"metronome" => {}
            _ => return Some(LineClass::UnknownGc),
        }
        Some(LineClass::Ignored)
    }

    fn attribute(&mut self, t: &mut Table, tag: &Tag) {
        let (Some(name), Some(value)) = (tag.attr(b"name"), tag.attr(b"value")) else {
            return;
        };
        if name == b"gcPolicy" {
            t.set_collector(collector_of_policy(value));
        }
        t.fmt.add_header(&String::from_utf8_lossy(name), value);
    }

    /// A new log starts while the stanza is open: it ends here.
    pub fn cut(&mut self, t: &mut Table) {
        if self.inside {
            self.close(t);
            t.diag.warn(
                "the <initialized> header is cut off by the start of another log: its figures so far are \
                 kept"
                    .to_string(),
            );
        }
    }

    /// The end of a file: a stanza still open ends with it.
    pub fn end_of_source(&mut self) {
        self.inside = false;
        self.command_line.clear();
    }

    fn close(&mut self, t: &mut Table) {
        self.inside = false;
        if !self.command_line.is_empty() {
            t.fmt.add_header("command_line", &self.command_line);
            self.command_line.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_and_versions() {
        assert_eq!(collector_of_policy(b"-Xgcpolicy:gencon"), "gencon");
        assert_eq!(
            collector_of_policy(b"-Xgcpolicy:optavgpause"),
            "optavgpause"
        );
        assert_eq!(collector_of_policy(b"-Xgcpolicy:subpool"), "J9");
        assert_eq!(
            jdk_of_version(b"R28_Java8_GA_20150116_2030_B231420_CMPRSS").as_deref(),
            Some("8")
        );
        assert_eq!(
            jdk_of_version(b"R27_Java727_SR1_20140707_1408_B205525_CMPRSS").as_deref(),
            Some("7")
        );
        assert_eq!(jdk_of_version(b"200811_07"), None);
    }
}
