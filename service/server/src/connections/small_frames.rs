//! One write per answer: how an answer's bytes reach the socket.
//!
//! The HTTP/2 layer (h2) collects the frames ready to go in a write buffer and writes it out in
//! one system call, except for a DATA frame from its chaining size up: such a frame is not copied
//! into the buffer but written after it, and nothing more is buffered until both are written.
//! A unary answer is three frames (HEADERS, DATA, trailing HEADERS), so an answer whose message
//! reaches that size took two writes, the trailers apart, where a smaller one took one; and each
//! write on a loopback or LAN socket costs more CPU, in the kernel and in the peer's wake-ups,
//! than copying a kilobyte. The chaining size is 256 bytes on a connection that reports
//! vectored writes and [`CHAINED_FROM`] on one that does not, and a game's view is typically
//! 0.4 to 1.5 KiB (docs/PERFORMANCE.md, "One write per answer").
//!
//! So connections report no vectored writes ([`super::io::TrackedConnection`]), and
//! [`SmallFrames`] cuts a data frame from [`CHAINED_FROM`] up to [`CUT_UP_TO`] bytes into
//! pieces below [`CHAINED_FROM`] (pieces of one `Bytes`, not copies): every frame of such an
//! answer is buffered and the answer goes out in one write. Larger frames (long history pages,
//! a watch catching up) go whole, in two writes, since their bytes rather than their writes are
//! their cost.

use std::pin::Pin;
use std::task::{Context, Poll};

use http_body::{Body, Frame, SizeHint};
use tonic::codegen::Bytes;

/// The size from which h2 writes a DATA frame apart from its buffer on a connection without
/// vectored writes (h2's `CHAIN_THRESHOLD_WITHOUT_VECTORED_IO`).
pub(super) const CHAINED_FROM: usize = 1024;

/// The largest data frame cut into pieces; larger ones go whole.
pub(super) const CUT_UP_TO: usize = 16 * 1024;

/// A body whose data frames from [`CHAINED_FROM`] to [`CUT_UP_TO`] bytes are sent as pieces
/// below [`CHAINED_FROM`] (see the module documentation).
#[derive(Debug)]
pub(super) struct SmallFrames<B> {
    inner: B,
    /// The rest of a frame being cut.
    rest: Bytes,
}

impl<B> SmallFrames<B> {
    /// Wraps `inner`.
    pub(super) fn new(inner: B) -> SmallFrames<B> {
        SmallFrames {
            inner,
            rest: Bytes::new(),
        }
    }

    /// The next piece of the frame being cut.
    fn next_piece(&mut self) -> Bytes {
        let size = self.rest.len().min(CHAINED_FROM - 1);
        self.rest.split_to(size)
    }
}

impl<B> Body for SmallFrames<B>
where
    B: Body<Data = Bytes> + Unpin,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.get_mut();
        if !this.rest.is_empty() {
            return Poll::Ready(Some(Ok(Frame::data(this.next_piece()))));
        }
        let frame = match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => frame,
            other => return other,
        };
        match frame.into_data() {
            Ok(data) if (CHAINED_FROM..=CUT_UP_TO).contains(&data.len()) => {
                this.rest = data;
                Poll::Ready(Some(Ok(Frame::data(this.next_piece()))))
            }
            Ok(data) => Poll::Ready(Some(Ok(Frame::data(data)))),
            Err(frame) => Poll::Ready(Some(Ok(frame))),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty() && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let mut hint = self.inner.size_hint();
        let rest = self.rest.len() as u64;
        hint.set_lower(hint.lower() + rest);
        if let Some(upper) = hint.upper() {
            hint.set_upper(upper + rest);
        }
        hint
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderMap;
    use http_body_util::{BodyExt, StreamBody};

    async fn frames_of(frames: Vec<Frame<Bytes>>) -> Vec<Frame<Bytes>> {
        let stream = futures::stream::iter(frames.into_iter().map(Ok::<_, std::io::Error>));
        let mut body = SmallFrames::new(StreamBody::new(stream));
        let mut out = Vec::new();
        while let Some(frame) = body.frame().await {
            out.push(frame.unwrap());
        }
        out
    }

    fn data_sizes(frames: &[Frame<Bytes>]) -> Vec<usize> {
        frames
            .iter()
            .filter_map(|frame| frame.data_ref().map(Bytes::len))
            .collect()
    }

    #[tokio::test]
    async fn frames_h2_would_write_apart_are_cut_below_its_chaining_size() {
        let message: Vec<u8> = (0..2500u32).map(|i| i as u8).collect();
        let mut trailers = HeaderMap::new();
        trailers.insert("grpc-status", "0".parse().unwrap());
        let out = frames_of(vec![
            Frame::data(Bytes::from(message.clone())),
            Frame::trailers(trailers),
        ])
        .await;
        assert_eq!(data_sizes(&out), [1023, 1023, 454]);
        let joined: Vec<u8> = out
            .iter()
            .filter_map(Frame::data_ref)
            .flat_map(|data| data.iter().copied())
            .collect();
        assert_eq!(joined, message, "the same bytes, in order");
        assert!(
            out.last().unwrap().is_trailers(),
            "trailers still come last"
        );
    }

    #[tokio::test]
    async fn small_and_large_frames_go_whole() {
        let out = frames_of(vec![
            Frame::data(Bytes::from(vec![1; CHAINED_FROM - 1])),
            Frame::data(Bytes::from(vec![2; CUT_UP_TO + 1])),
            Frame::data(Bytes::from(vec![3; CHAINED_FROM])),
        ])
        .await;
        assert_eq!(
            data_sizes(&out),
            [CHAINED_FROM - 1, CUT_UP_TO + 1, CHAINED_FROM - 1, 1]
        );
    }
}
