//! One-pass protobuf encoding of the generated messages, and the gRPC codec that uses it.
//!
//! prost writes a nested message's length before the message, so it computes every nested
//! length first, at every level: a field `d` messages deep has its length computed `d` times
//! before it is written once (the game answers are 5 to 6 deep). [`ReverseWriter`] writes a
//! message back to front instead, children before the header that says their length, so every
//! byte is visited once. The impls of [`WireEncode`] are generated from the same descriptors as
//! prost's types (`proto/build/wire_gen.rs`) and write the same bytes as prost, byte for byte:
//! `proto/tests/wire.rs` checks every shape of field, the server's `tests/wire_encoding.rs` every
//! message random games of every game produce. Decoding stays prost's, from the frame as one
//! slice ([`SliceDecoder`]).
//!
//! [`WireCodec`] is the codec of the generated client and server: requests and answers are
//! encoded with [`WireEncode`] into a buffer kept per thread, then copied once into tonic's frame.

use std::cell::RefCell;
use std::marker::PhantomData;

use prost::bytes::{Buf, BufMut};
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

/// A message that can write itself, back to front, into a [`ReverseWriter`].
pub trait WireEncode {
    /// Writes the message's fields in reverse order; read front to back, the written bytes are
    /// the message's protobuf encoding.
    fn write_reverse(&self, writer: &mut ReverseWriter);

    /// The message's protobuf encoding.
    fn encode_wire(&self) -> Vec<u8> {
        let mut writer = ReverseWriter::new();
        self.write_reverse(&mut writer);
        writer.as_slice().to_vec()
    }
}

/// A byte buffer filled from its end towards its start.
#[derive(Debug, Default)]
pub struct ReverseWriter {
    /// The storage; the written bytes are `buffer[start..]`.
    buffer: Vec<u8>,
    /// Where the written bytes begin.
    start: usize,
}

/// The first capacity of a writer: most answers fit.
const INITIAL_CAPACITY: usize = 4096;

/// A thread's writer larger than this after a message is dropped rather than kept.
const MAX_KEPT_CAPACITY: usize = 256 * 1024;

/// Slices up to this long are copied byte by byte rather than by `memcpy`.
const SHORT: usize = 16;

impl ReverseWriter {
    /// An empty writer.
    pub fn new() -> ReverseWriter {
        ReverseWriter::default()
    }

    /// The number of bytes written.
    pub fn len(&self) -> usize {
        self.buffer.len() - self.start
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the writer holds room for, written or not.
    pub fn capacity(&self) -> usize {
        self.buffer.len()
    }

    /// The bytes written, in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.buffer[self.start..]
    }

    /// Forgets what was written, keeping the storage.
    pub fn clear(&mut self) {
        self.start = self.buffer.len();
    }

    /// Room for `needed` more bytes before the written ones.
    #[inline]
    fn reserve(&mut self, needed: usize) {
        if self.start < needed {
            self.grow(needed);
        }
    }

    #[cold]
    fn grow(&mut self, needed: usize) {
        let used = self.len();
        let capacity = (self.buffer.len() * 2)
            .max(used + needed)
            .max(INITIAL_CAPACITY);
        let mut buffer = vec![0; capacity];
        buffer[capacity - used..].copy_from_slice(self.as_slice());
        self.buffer = buffer;
        self.start = capacity - used;
    }

    /// Writes `bytes` before what was written.
    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        self.start -= bytes.len();
        let out = &mut self.buffer[self.start..self.start + bytes.len()];
        if bytes.len() <= SHORT {
            // Most strings are names of two to five bytes: a loop costs less than a call.
            for (to, from) in out.iter_mut().zip(bytes) {
                *to = *from;
            }
        } else {
            out.copy_from_slice(bytes);
        }
    }

    /// Writes `value` as a varint before what was written.
    #[inline]
    pub fn varint(&mut self, value: u64) {
        if value < 0x80 {
            // Most varints (keys, small numbers, lengths of small messages) take one byte.
            self.reserve(1);
            self.start -= 1;
            self.buffer[self.start] = value as u8;
        } else {
            self.long_varint(value);
        }
    }

    /// [`ReverseWriter::varint`] for values of two bytes or more.
    fn long_varint(&mut self, mut value: u64) {
        let length = varint_length(value);
        self.reserve(length);
        self.start -= length;
        let out = &mut self.buffer[self.start..self.start + length];
        let (last, leading) = out
            .split_last_mut()
            .expect("a varint has at least one byte");
        for byte in leading {
            *byte = (value as u8) | 0x80;
            value >>= 7;
        }
        *last = value as u8;
    }

    /// Writes a field key (`number` and wire type).
    #[inline]
    fn key(&mut self, number: u32, wire_type: u32) {
        self.varint(u64::from((number << 3) | wire_type));
    }

    /// Writes a varint field.
    #[inline]
    pub fn varint_field(&mut self, number: u32, value: u64) {
        self.varint(value);
        self.key(number, 0);
    }

    /// Writes a string or bytes field.
    #[inline]
    pub fn length_delimited(&mut self, number: u32, bytes: &[u8]) {
        self.bytes(bytes);
        self.varint(bytes.len() as u64);
        self.key(number, 2);
    }

    /// Writes a message field.
    #[inline]
    pub fn message<M: WireEncode>(&mut self, number: u32, message: &M) {
        let end = self.len();
        message.write_reverse(self);
        self.varint((self.len() - end) as u64);
        self.key(number, 2);
    }

    /// Writes a message field whose fields `write` writes (back to front, as
    /// [`WireEncode::write_reverse`] does), for messages written without building them first.
    #[inline]
    pub fn nested(&mut self, number: u32, write: impl FnOnce(&mut ReverseWriter)) {
        let end = self.len();
        write(self);
        self.varint((self.len() - end) as u64);
        self.key(number, 2);
    }

    /// Writes a packed repeated varint field from its values in reverse order.
    #[inline]
    pub fn packed_varints(&mut self, number: u32, values_in_reverse: impl Iterator<Item = u64>) {
        let end = self.len();
        for value in values_in_reverse {
            self.varint(value);
        }
        self.varint((self.len() - end) as u64);
        self.key(number, 2);
    }
}

/// The bytes a varint of `value` takes (1 to 10).
#[inline]
fn varint_length(value: u64) -> usize {
    // 7 bits per byte: ceil(significant bits / 7), and one byte for zero.
    (64 - (value | 1).leading_zeros() as usize).div_ceil(7)
}

thread_local! {
    /// The writer each thread encodes its messages with, kept between messages.
    static SCRATCH: RefCell<ReverseWriter> = RefCell::new(ReverseWriter::new());
}

/// The bytes `write` writes (back to front), written with this thread's writer.
pub fn encode_with(write: impl FnOnce(&mut ReverseWriter)) -> Vec<u8> {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut writer) => {
            writer.clear();
            write(&mut writer);
            let bytes = writer.as_slice().to_vec();
            if writer.capacity() > MAX_KEPT_CAPACITY {
                *writer = ReverseWriter::new();
            }
            bytes
        }
        // Called while the thread's writer is in use: a writer of its own.
        Err(_) => {
            let mut writer = ReverseWriter::new();
            write(&mut writer);
            writer.as_slice().to_vec()
        }
    })
}

/// A message encoded already, sent as it is: for answers written straight from the state they
/// show rather than from a generated message (the server's `Act` and `Observe`). Clients decode
/// it as the message it encodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded(pub Vec<u8>);

impl Encoded {
    /// The encoding of `message`.
    pub fn of<M: WireEncode>(message: &M) -> Encoded {
        Encoded(encode_with(|writer| message.write_reverse(writer)))
    }

    /// Decodes it as an `M`, the message it encodes.
    pub fn decode<M: prost::Message + Default>(&self) -> Result<M, prost::DecodeError> {
        M::decode(self.0.as_slice())
    }
}

/// The gRPC codec of a server method that answers with [`Encoded`] messages: the bytes go into
/// tonic's frame as they are (one copy), requests are decoded by [`SliceDecoder`].
#[derive(Debug, Clone)]
pub struct EncodedCodec<U> {
    _type: PhantomData<U>,
}

impl<U> Default for EncodedCodec<U> {
    fn default() -> Self {
        EncodedCodec { _type: PhantomData }
    }
}

impl<U> Codec for EncodedCodec<U>
where
    U: prost::Message + Default + Send + 'static,
{
    type Encode = Encoded;
    type Decode = U;
    type Encoder = EncodedEncoder;
    type Decoder = SliceDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        EncodedEncoder
    }

    fn decoder(&mut self) -> Self::Decoder {
        SliceDecoder::default()
    }
}

/// Decodes a message with prost from its frame's bytes as one slice.
///
/// tonic hands a decoder the frame in a `BytesMut`, and prost advances its buffer once per field
/// header, varint and string: a `BytesMut` checks its representation at every advance, which
/// made that bookkeeping the largest single cost of decoding a game's answer (a few hundred
/// fields). The frame is contiguous, so the message is decoded from the slice, whose advance is
/// a pointer step, and the frame is advanced once. A decoding error is INTERNAL with prost's
/// text, as tonic's own prost decoder answers.
#[derive(Debug, Clone)]
pub struct SliceDecoder<U> {
    _type: PhantomData<U>,
}

impl<U> Default for SliceDecoder<U> {
    fn default() -> Self {
        SliceDecoder { _type: PhantomData }
    }
}

impl<U> Decoder for SliceDecoder<U>
where
    U: prost::Message + Default,
{
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buffer: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        let length = buffer.remaining();
        let decoded = if buffer.chunk().len() == length {
            let decoded = U::decode(buffer.chunk());
            buffer.advance(length);
            decoded
        } else {
            U::decode(&mut *buffer)
        };
        decoded
            .map(Some)
            .map_err(|error| Status::internal(error.to_string()))
    }
}

/// Puts [`Encoded`] messages into tonic's frame, for [`EncodedCodec`].
#[derive(Debug, Clone, Copy, Default)]
pub struct EncodedEncoder;

impl Encoder for EncodedEncoder {
    type Item = Encoded;
    type Error = Status;

    fn encode(&mut self, item: Encoded, buffer: &mut EncodeBuf<'_>) -> Result<(), Status> {
        buffer.put_slice(&item.0);
        Ok(())
    }
}

/// The gRPC codec of the generated client and server: [`WireEncode`] to encode,
/// [`SliceDecoder`] to decode.
#[derive(Debug, Clone)]
pub struct WireCodec<T, U> {
    _types: PhantomData<(T, U)>,
}

impl<T, U> WireCodec<T, U> {
    /// The codec.
    pub fn new() -> Self {
        WireCodec {
            _types: PhantomData,
        }
    }
}

impl<T, U> Default for WireCodec<T, U> {
    fn default() -> Self {
        WireCodec::new()
    }
}

impl<T, U> Codec for WireCodec<T, U>
where
    T: WireEncode + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = WireEncoder<T>;
    type Decoder = SliceDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        WireEncoder {
            _type: PhantomData,
            buffer_settings: BufferSettings::default(),
        }
    }

    fn decoder(&mut self) -> Self::Decoder {
        SliceDecoder::default()
    }
}

/// Encodes messages of type `T` for [`WireCodec`].
#[derive(Debug)]
pub struct WireEncoder<T> {
    _type: PhantomData<T>,
    buffer_settings: BufferSettings,
}

impl<T: WireEncode> Encoder for WireEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, buffer: &mut EncodeBuf<'_>) -> Result<(), Status> {
        SCRATCH.with(|scratch| {
            let mut writer = scratch.borrow_mut();
            writer.clear();
            item.write_reverse(&mut writer);
            buffer.put_slice(writer.as_slice());
            if writer.capacity() > MAX_KEPT_CAPACITY {
                // A rare long answer (a whole history) does not pin its buffer to the thread.
                *writer = ReverseWriter::new();
            }
        });
        Ok(())
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.buffer_settings
    }
}

include!(concat!(env!("OUT_DIR"), "/deckmate_wire.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_lengths_match_the_encoding() {
        for value in [0u64, 1, 127, 128, 16_383, 16_384, u32::MAX as u64, u64::MAX] {
            let mut expected = Vec::new();
            prost::encoding::encode_varint(value, &mut expected);
            assert_eq!(varint_length(value), expected.len(), "{value}");
            let mut writer = ReverseWriter::new();
            writer.varint(value);
            assert_eq!(writer.as_slice(), expected.as_slice(), "{value}");
        }
    }

    #[test]
    fn nested_writes_a_length_delimited_field() {
        let mut writer = ReverseWriter::new();
        writer.nested(9, |inner| {
            inner.varint_field(2, 300);
            inner.length_delimited(1, b"ab");
        });
        // Key 9/2, length 7, then field 1 ("ab") and field 2 (300 as a two-byte varint).
        assert_eq!(
            writer.as_slice(),
            [0x4a, 7, 0x0a, 2, b'a', b'b', 0x10, 0xac, 0x02]
        );
    }

    #[test]
    fn encoded_messages_are_sent_as_they_are() {
        let encoded = encode_with(|writer| writer.varint_field(1, 5));
        assert_eq!(encoded, [0x08, 5]);
        // Nested in another encoding, the thread's writer is not taken twice.
        let outer = encode_with(|writer| {
            let inner = encode_with(|inner| inner.varint_field(3, 1));
            writer.bytes(&inner);
        });
        assert_eq!(outer, [0x18, 1]);
    }

    #[test]
    fn a_writer_grows_keeping_what_it_wrote() {
        let mut writer = ReverseWriter::new();
        let chunk = [7u8; 1000];
        for _ in 0..10 {
            writer.bytes(&chunk);
        }
        writer.bytes(b"head");
        assert_eq!(writer.len(), 10_004);
        assert_eq!(&writer.as_slice()[..4], b"head");
        assert!(writer.as_slice()[4..].iter().all(|&byte| byte == 7));
        assert!(writer.capacity() >= 10_004);
        writer.clear();
        assert!(writer.is_empty());
    }
}
