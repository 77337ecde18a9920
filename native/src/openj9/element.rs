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
    /// The value of attribute `key` as written (entities left as they are), or None.
    pub fn attr(&self, key: &[u8]) -> Option<&'a [u8]> {
        self.attrs().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Every `key="value"` (or `key='value'`) pair, in order; stops at the first malformed one.
    pub fn attrs(&self) -> Attrs<'a> {
        Attrs { rest: self.attrs }
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

pub struct Attrs<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let s = self.rest;
        let start = s.iter().position(|&b| !is_space(b))?;
        let eq = start + memchr::memchr(b'=', &s[start..])?;
        let key = crate::numbers::trim_end(&s[start..eq]);
        let after = eq + 1 + s[eq + 1..].iter().position(|&b| !is_space(b))?;
        let quote = s[after];
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let close = after + 1 + memchr::memchr(quote, &s[after + 1..])?;
        self.rest = &s[close + 1..];
        Some((key, &s[after + 1..close]))
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
