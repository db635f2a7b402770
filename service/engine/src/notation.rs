//! Short names written without the formatting machinery: square, spot, move and card names are
//! written for every legal action of every view a server sends, so they are built byte by byte
//! on the stack and copied once. Each type's `Display` goes through the same
//! [`Notation`], so there is one way a name is spelled.

use std::fmt;

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
        std::str::from_utf8(&self.bytes[..usize::from(self.len)])
            .expect("only ASCII bytes are pushed")
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
    fn from(notation: Notation) -> String {
        notation.as_str().to_owned()
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
        assert_eq!(Notation::new().push_small_number(12).as_str(), "12");
        assert_eq!(String::from(Notation::new()), "");
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
