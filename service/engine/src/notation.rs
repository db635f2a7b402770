//! Short names written without the formatting machinery: square, spot, move and card names are
//! written for every legal action of every view a server sends, so they are built byte by byte
//! on the stack and copied once. Each type's `Display` goes through the same
//! [`Notation`], so there is one way a name is spelled.

use std::fmt;
use std::sync::OnceLock;

/// Room for the longest name: a Card Chess spot such as `black kingdom 5` (15 bytes).
const CAPACITY: usize = 16;

/// An ASCII name of at most 16 bytes, kept inline.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Notation {
    bytes: [u8; CAPACITY],
    len: u8,
}

impl Notation {
    /// An empty name.
    pub const fn new() -> Notation {
        Notation {
            bytes: [0; CAPACITY],
            len: 0,
        }
    }

    /// Appends one ASCII byte.
    ///
    /// # Panics
    /// If the name would be longer than 16 bytes or `byte` is not ASCII (a bug in the caller:
    /// every name is short and ASCII by construction).
    pub const fn push(mut self, byte: u8) -> Notation {
        assert!(byte.is_ascii(), "names are ASCII");
        self.bytes[self.len as usize] = byte;
        self.len += 1;
        self
    }

    /// Appends an ASCII string.
    ///
    /// # Panics
    /// As [`Notation::push`].
    pub const fn push_str(mut self, text: &str) -> Notation {
        let bytes = text.as_bytes();
        let mut index = 0;
        while index < bytes.len() {
            self = self.push(bytes[index]);
            index += 1;
        }
        self
    }

    /// Appends another name.
    ///
    /// # Panics
    /// As [`Notation::push`].
    pub const fn push_notation(mut self, other: Notation) -> Notation {
        let mut index = 0;
        while index < other.len as usize {
            self = self.push(other.bytes[index]);
            index += 1;
        }
        self
    }

    /// Appends a number below 100 in decimal.
    pub const fn push_small_number(self, number: u8) -> Notation {
        assert!(number < 100, "a small number");
        if number >= 10 {
            self.push(b'0' + number / 10).push(b'0' + number % 10)
        } else {
            self.push(b'0' + number)
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).expect("only ASCII bytes are pushed")
    }

    /// The name's bytes, all ASCII: what a writer of wire bytes copies, without the UTF-8 check
    /// of [`Notation::as_str`] (the wire's strings are bytes, and these are ASCII by
    /// construction).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl Default for Notation {
    fn default() -> Notation {
        Notation::new()
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl fmt::Debug for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<Notation> for String {
    /// Copies the bytes one by one: they are ASCII by construction, so this skips the UTF-8
    /// check `as_str` makes, which costs more than the copy for names this short.
    fn from(notation: Notation) -> String {
        let bytes = &notation.bytes[..usize::from(notation.len)];
        let mut text = String::with_capacity(bytes.len());
        text.extend(bytes.iter().copied().map(char::from));
        text
    }
}

/// The names of the `N` values of a small closed set (squares, spots, cards), indexed 0 to
/// `N - 1`: each is spelled once, by its [`Notation`], on first use. A view names dozens of
/// these, and copying a finished name costs a fraction of spelling it again.
pub struct NameTable<const N: usize> {
    spell: fn(usize) -> Notation,
    names: OnceLock<[Box<str>; N]>,
}

impl<const N: usize> NameTable<N> {
    /// A table whose name at `index` is `spell(index)`.
    pub const fn new(spell: fn(usize) -> Notation) -> NameTable<N> {
        NameTable {
            spell,
            names: OnceLock::new(),
        }
    }

    /// The name at `index`.
    ///
    /// # Panics
    /// If `index` is `N` or more.
    pub fn name(&self, index: usize) -> &str {
        let names = self
            .names
            .get_or_init(|| std::array::from_fn(|index| (self.spell)(index).as_str().into()));
        &names[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_names_byte_by_byte() {
        let name = Notation::new().push(b'e').push_small_number(4);
        assert_eq!(name.as_str(), "e4");
        let name = Notation::new()
            .push_str("black kingdom ")
            .push_small_number(5);
        assert_eq!(name.as_str(), "black kingdom 5");
        assert_eq!(name.as_bytes(), b"black kingdom 5");
        assert!(Notation::new().as_bytes().is_empty());
        assert_eq!(Notation::new().push_small_number(12).as_str(), "12");
        assert_eq!(String::from(Notation::new()), "");
        let joined = Notation::new()
            .push_str("play ")
            .push_notation(Notation::new().push_str("W+4"));
        assert_eq!(joined.as_str(), "play W+4");
    }

    #[test]
    fn a_name_table_spells_each_name_once() {
        static DIGITS: NameTable<12> =
            NameTable::new(|index| Notation::new().push(b'd').push_small_number(index as u8));
        assert_eq!(DIGITS.name(0), "d0");
        assert_eq!(DIGITS.name(11), "d11");
        assert!(std::ptr::eq(DIGITS.name(3), DIGITS.name(3)));
    }

    #[test]
    fn display_pads_like_a_string() {
        let name = Notation::new().push_str("W+4");
        assert_eq!(format!("{name:>5}|{name}"), "  W+4|W+4");
        assert_eq!(format!("{name:?}"), "\"W+4\"");
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn longer_names_are_a_bug() {
        let _ = Notation::new().push_str("seventeen bytes!!");
    }
}
