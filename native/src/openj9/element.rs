//! One XML tag of a verbose GC log, as bytes from `<` to `>`: its name, whether it closes, whether it is
//! empty (`/>`), and its attributes read on demand. No allocation: names and values borrow the line.

/// A start tag (`<gc-end id="8" ...>`), an empty tag (`<af-end ... />`) or an end tag (`</gc-end>`).
#[derive(Debug, Clone, Copy)]
pub struct Tag<'a> {
    pub name: &'a [u8],
    /// `</name>`.
    pub end: bool,
    /// `<name ... />`: opens and closes at once.
    pub empty: bool,
    attrs: &'a [u8],
}

/// What a `<...>` holds.
pub enum Markup<'a> {
    Tag(Tag<'a>),
    /// `<?xml ... ?>`, `<!-- ... -->`, `<!DOCTYPE ...>`: no data.
    Declaration,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Reads `raw`, the bytes from `<` to its `>` (both included). None when it is not a tag.
pub fn parse(raw: &[u8]) -> Option<Markup<'_>> {
    let inner = raw.strip_prefix(b"<")?.strip_suffix(b">")?;
    match inner.first() {
        Some(b'?') | Some(b'!') => return Some(Markup::Declaration),
        None => return None,
        _ => {}
    }
    let (end, inner) = match inner.strip_prefix(b"/") {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let (empty, inner) = match inner.strip_suffix(b"/") {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let name_len = inner
        .iter()
        .position(|&b| is_space(b))
        .unwrap_or(inner.len());
    let name = &inner[..name_len];
    let valid = !name.is_empty()
        && name[0].is_ascii_alphabetic()
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'));
    valid.then_some(Markup::Tag(Tag {
        name,
        end,
        empty,
        attrs: &inner[name_len..],
    }))
}

impl<'a> Tag<'a> {
    /// The value of attribute `key` as written (entities left as they are), or None. One pass over the
    /// attributes with plain loops: they are short, and most tags are asked for one or two.
    pub fn attr(&self, key: &[u8]) -> Option<&'a [u8]> {
        let s = self.attrs;
        let mut i = 0;
        while i < s.len() {
            while i < s.len() && is_space(s[i]) {
                i += 1;
            }
            let name_start = i;
            while i < s.len() && s[i] != b'=' && !is_space(s[i]) {
                i += 1;
            }
            let name = &s[name_start..i];
            while i < s.len() && (s[i] == b'=' || is_space(s[i])) {
                i += 1;
            }
            let quote = *s.get(i)?;
            if quote != b'"' && quote != b'\'' {
                return None;
            }
            let value_start = i + 1;
            i = value_start;
            while i < s.len() && s[i] != quote {
                i += 1;
            }
            if i >= s.len() {
                return None; // an unclosed value: a cut tag
            }
            if name == key {
                return Some(&s[value_start..i]);
            }
            i += 1;
        }
        None
    }

    /// A number attribute (`durationms="5.290"`, `total="469762048"`), or None.
    pub fn number(&self, key: &[u8]) -> Option<f64> {
        let v = self.attr(key)?;
        match crate::numbers::parse_decimal(v) {
            Some((x, n)) if n == v.len() => Some(x),
            _ => None,
        }
    }

    /// An integer attribute, or None.
    pub fn int(&self, key: &[u8]) -> Option<i64> {
        let v = self.attr(key)?;
        match crate::numbers::parse_int(v) {
            Some((x, n)) if n == v.len() => Some(x),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(raw: &[u8]) -> Tag<'_> {
        match parse(raw) {
            Some(Markup::Tag(t)) => t,
            _ => panic!("not a tag"),
        }
    }

    #[test]
    fn start_empty_and_end_tags() {
        let t = tag(br#"<gc-end id="8" type="scavenge" contextid="4" durationms="5.175">"#);
        assert_eq!((t.name, t.end, t.empty), (&b"gc-end"[..], false, false));
        assert_eq!(t.attr(b"type"), Some(&b"scavenge"[..]));
        assert_eq!(t.attr(b"id"), Some(&b"8"[..]), "id is not contextid");
        assert_eq!(t.number(b"durationms"), Some(5.175));
        let e = tag(br#"<af-end id="12" timestamp="2013-08-15T11:15:45.902" />"#);
        assert!(e.empty && !e.end);
        assert_eq!(e.int(b"id"), Some(12));
        let c = tag(b"</gc-end>");
        assert!(c.end && c.name == b"gc-end");
    }

    #[test]
    fn declarations_and_garbage() {
        assert!(matches!(
            parse(b"<?xml version=\"1.0\" ?>"),
            Some(Markup::Declaration)
        ));
        assert!(matches!(
            parse(b"<!-- a comment -->"),
            Some(Markup::Declaration)
        ));
        assert!(parse(b"<>").is_none());
        assert!(parse(b"< 3 >").is_none());
    }

    #[test]
    fn attribute_values_with_spaces_and_entities() {
        let t = tag(br#"<largest-consumer threadName="IS &lt;octopus&gt; x" bytes="1" />"#);
        assert_eq!(t.attr(b"threadName"), Some(&b"IS &lt;octopus&gt; x"[..]));
        assert_eq!(t.int(b"bytes"), Some(1));
        assert_eq!(t.attr(b"missing"), None);
    }
}
