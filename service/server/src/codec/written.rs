//! Helpers for the games that write their observations and actions straight into protobuf
//! bytes ([`GameCodec::write_observation`](super::GameCodec::write_observation),
//! [`GameCodec::write_action`](super::GameCodec::write_action)): each writes one field the way
//! `deckmate_proto::wire` writes the generated messages' fields, so that the bytes are the
//! built message's (proto3: a scalar, string or enum field at its default is left out, an
//! `optional` or message field is written whenever it is set). Fields are written back to front,
//! the highest field number first.

use deckmate_engine::Notation;
use deckmate_engine::chess::Square;
use deckmate_proto::wire::ReverseWriter;

/// A `uint32` (or `uint64`) field.
#[inline]
pub fn uint(writer: &mut ReverseWriter, number: u32, value: impl Into<u64>) {
    let value = value.into();
    if value != 0 {
        writer.varint_field(number, value);
    }
}

/// An `optional uint32` field.
#[inline]
pub fn optional_uint(writer: &mut ReverseWriter, number: u32, value: Option<impl Into<u64>>) {
    if let Some(value) = value {
        writer.varint_field(number, value.into());
    }
}

/// A `bool` field.
#[inline]
pub fn boolean(writer: &mut ReverseWriter, number: u32, value: bool) {
    if value {
        writer.varint_field(number, 1);
    }
}

/// An `int32` field.
#[inline]
pub fn int(writer: &mut ReverseWriter, number: u32, value: i32) {
    if value != 0 {
        writer.varint_field(number, i64::from(value) as u64);
    }
}

/// An enum field, given its number on the wire.
#[inline]
pub fn enumeration(writer: &mut ReverseWriter, number: u32, value: i32) {
    if value != 0 {
        writer.varint_field(number, i64::from(value) as u64);
    }
}

/// An `optional` enum field.
#[inline]
pub fn optional_enumeration(writer: &mut ReverseWriter, number: u32, value: Option<i32>) {
    if let Some(value) = value {
        writer.varint_field(number, i64::from(value) as u64);
    }
}

/// A `string` field.
#[inline]
pub fn text(writer: &mut ReverseWriter, number: u32, value: &str) {
    string_bytes(writer, number, value.as_bytes());
}

/// A `string` field holding `name`, copied as the ASCII bytes it is.
#[inline]
pub fn notation(writer: &mut ReverseWriter, number: u32, name: &Notation) {
    string_bytes(writer, number, name.as_bytes());
}

/// A `string` field holding `bytes`, which are UTF-8: left out when empty.
#[inline]
fn string_bytes(writer: &mut ReverseWriter, number: u32, bytes: &[u8]) {
    if !bytes.is_empty() {
        writer.length_delimited(number, bytes);
    }
}

/// A `repeated uint32` field (packed).
#[inline]
pub fn packed_uints(writer: &mut ReverseWriter, number: u32, values: &[u32]) {
    if !values.is_empty() {
        writer.packed_varints(number, values.iter().rev().map(|&value| u64::from(value)));
    }
}

/// A `repeated` enum field (packed) of `values`, each numbered by `encode`.
#[inline]
pub fn packed_enums<T: Copy>(
    writer: &mut ReverseWriter,
    number: u32,
    values: &[T],
    encode: impl Fn(T) -> i32,
) {
    if !values.is_empty() {
        writer.packed_varints(
            number,
            values
                .iter()
                .rev()
                .map(|&value| i64::from(encode(value)) as u64),
        );
    }
}

/// A repeated message field holding each piece of a chess board (indexed by
/// [`Square::index`]) in square order, a1 first, each written by `write`: the bytes of the list
/// [`board_pieces`](super::common::board_pieces) builds.
#[inline]
pub fn board<P: Copy>(
    writer: &mut ReverseWriter,
    number: u32,
    board: &[Option<P>; 64],
    write: impl Fn(&mut ReverseWriter, Square, P),
) {
    for index in (0..64u8).rev() {
        if let Some(piece) = board[usize::from(index)] {
            let square = Square::new(index).expect("a board index is a square");
            writer.nested(number, |writer| write(writer, square, piece));
        }
    }
}
