//! RPC span fields for log lines, formatted only when a line is written.
//!
//! Every RPC records its method, variant, game id, seat, version and status on its span, and
//! the text and JSON log layers format each value into the span's text the moment it is
//! recorded: about a tenth of the server's work per call, for lines that are almost never
//! written (a call that succeeds logs nothing at the default level). [`LazyRpcFields`] wraps
//! the log layer: it keeps an RPC span's values as they are recorded and hands them to the log
//! layer, as one record, only when an event inside that span is about to be written. The line
//! comes out the same (the fields in declaration order, each once with its latest value).
//! Other spans pass straight through.

use tracing::field::{Field, FieldSet, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::{LookupSpan, SpanRef};

use super::RPC_SERVICE;

/// Wraps a log layer so that RPC span fields are formatted only for the lines written.
pub struct LazyRpcFields<L> {
    inner: L,
}

impl<L> LazyRpcFields<L> {
    /// Wraps `inner`, a layer that formats span fields (the text or JSON log layer).
    pub fn new(inner: L) -> LazyRpcFields<L> {
        LazyRpcFields { inner }
    }
}

/// Whether a span is an RPC span (named `deckmate.v1.GameService/<Method>`).
fn is_rpc_span(metadata: &Metadata<'_>) -> bool {
    metadata.is_span() && metadata.name().starts_with(RPC_SERVICE)
}

/// One recorded value, owned (the recorded ones are borrowed for the call only).
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Text(String),
    Signed(i64),
    Unsigned(u64),
    Flag(bool),
}

/// The values recorded on one RPC span, by field position, and which of them the log layer
/// has not seen yet.
#[derive(Debug)]
struct Pending {
    fields: &'static FieldSet,
    values: Vec<Option<Value>>,
    unseen: Vec<bool>,
}

impl Pending {
    fn new(fields: &'static FieldSet) -> Pending {
        Pending {
            fields,
            values: vec![None; fields.len()],
            unseen: vec![false; fields.len()],
        }
    }

    fn set(&mut self, field: &Field, value: Value) {
        // A record names only fields of the span's own set.
        // A value recorded again unchanged (the variant, recorded with the seat) is not news:
        // the log line must not show the field twice.
        if let Some(index) = self.fields.iter().position(|known| known == *field)
            && self.values[index].as_ref() != Some(&value)
        {
            self.values[index] = Some(value);
            self.unseen[index] = true;
        }
    }

    fn has_unseen(&self) -> bool {
        self.unseen.contains(&true)
    }
}

impl Visit for Pending {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.set(field, Value::Text(value.to_owned()));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.set(field, Value::Signed(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.set(field, Value::Unsigned(value));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.set(field, Value::Flag(value));
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.set(field, Value::Text(format!("{value:?}")));
    }
}

/// Gives the log layer the values of `span` it has not seen, as one record.
fn flush<S, L>(inner: &L, span: &SpanRef<'_, S>, ctx: &Context<'_, S>)
where
    S: Subscriber + for<'span> LookupSpan<'span>,
    L: Layer<S>,
{
    if !is_rpc_span(span.metadata()) {
        return;
    }
    // Taken out while the log layer records: it locks the same extensions.
    let Some(mut pending) = span.extensions_mut().remove::<Pending>() else {
        return;
    };
    if pending.has_unseen() {
        let fields = pending.fields;
        let texts: Vec<&str> = pending
            .values
            .iter()
            .map(|value| match value {
                Some(Value::Text(text)) => text.as_str(),
                _ => "",
            })
            .collect();
        let values: Vec<Option<&dyn tracing::Value>> = (0..fields.len())
            .map(|index| {
                if !pending.unseen[index] {
                    return None;
                }
                match &pending.values[index] {
                    Some(Value::Text(_)) => Some(&texts[index] as &dyn tracing::Value),
                    Some(Value::Signed(number)) => Some(number as &dyn tracing::Value),
                    Some(Value::Unsigned(number)) => Some(number as &dyn tracing::Value),
                    Some(Value::Flag(flag)) => Some(flag as &dyn tracing::Value),
                    None => None,
                }
            })
            .collect();
        let value_set = fields.value_set_all(&values);
        inner.on_record(&span.id(), &Record::new(&value_set), ctx.clone());
        pending.unseen.iter_mut().for_each(|unseen| *unseen = false);
    }
    span.extensions_mut().insert(pending);
}

impl<S, L> Layer<S> for LazyRpcFields<L>
where
    S: Subscriber + for<'span> LookupSpan<'span>,
    L: Layer<S>,
{
    fn on_register_dispatch(&self, subscriber: &tracing::Dispatch) {
        self.inner.on_register_dispatch(subscriber);
    }

    fn on_layer(&mut self, subscriber: &mut S) {
        self.inner.on_layer(subscriber);
    }

    fn register_callsite(
        &self,
        metadata: &'static Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        self.inner.register_callsite(metadata)
    }

    fn enabled(&self, metadata: &Metadata<'_>, ctx: Context<'_, S>) -> bool {
        self.inner.enabled(metadata, ctx)
    }

    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if !is_rpc_span(attrs.metadata()) {
            return self.inner.on_new_span(attrs, id, ctx);
        }
        let Some(span) = ctx.span(id) else {
            return;
        };
        let mut pending = Pending::new(attrs.metadata().fields());
        attrs.record(&mut pending);
        span.extensions_mut().insert(pending);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id)
            && is_rpc_span(span.metadata())
            && let Some(pending) = span.extensions_mut().get_mut::<Pending>()
        {
            values.record(pending);
            return;
        }
        self.inner.on_record(id, values, ctx);
    }

    fn on_follows_from(&self, span: &Id, follows: &Id, ctx: Context<'_, S>) {
        self.inner.on_follows_from(span, follows, ctx);
    }

    fn event_enabled(&self, event: &Event<'_>, ctx: Context<'_, S>) -> bool {
        self.inner.event_enabled(event, ctx)
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        if let Some(scope) = ctx.event_scope(event) {
            for span in scope {
                flush(&self.inner, &span, &ctx);
            }
        }
        self.inner.on_event(event, ctx);
    }

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        self.inner.on_enter(id, ctx);
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        self.inner.on_exit(id, ctx);
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        self.inner.on_close(id, ctx);
    }

    fn on_id_change(&self, old: &Id, new: &Id, ctx: Context<'_, S>) {
        self.inner.on_id_change(old, new, ctx);
    }
}
