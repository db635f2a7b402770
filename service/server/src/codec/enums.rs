//! Enum tables: one engine enum <-> one proto enum, written once with `proto_enum_map!` and
//! read and written for every game by [`ProtoEnum`]'s provided methods.
//!
//! The table is implemented on the proto enum, which belongs to exactly one game, so two games
//! may map the same engine enum (the chess `Role`) to their own proto enums.

use deckmate_engine::SetupError;

use crate::error::ApiError;

/// A proto enum and the engine enum it stands for. `*_UNSPECIFIED` (0) stands for none.
pub trait ProtoEnum: Copy + Eq + Into<i32> + TryFrom<i32> + 'static {
    /// The engine enum.
    type Engine: Copy + std::fmt::Debug;

    /// What one value is called in error messages ("colour", "piece").
    const NOUN: &'static str;

    /// Every proto value but `UNSPECIFIED`, in declaration order.
    const ALL: &'static [Self];

    /// The proto value of an engine value.
    fn of(value: Self::Engine) -> Self;

    /// The engine value of a proto value; `None` for `UNSPECIFIED`.
    fn engine(self) -> Option<Self::Engine>;

    /// An engine value as its proto number.
    fn encode(value: Self::Engine) -> i32 {
        Self::of(value).into()
    }

    /// Reads a proto number; `UNSPECIFIED` and unknown numbers are refused with what is wrong.
    fn read(value: i32) -> Result<Self::Engine, String> {
        match Self::try_from(value) {
            Ok(proto) => proto.engine().ok_or_else(|| "must be set".to_string()),
            Err(_) => Err(format!("unknown {} {value}", Self::NOUN)),
        }
    }

    /// Reads the proto number in the request field at `field`; a bad one is
    /// [`ApiError::InvalidField`] naming the field. The field's path is written only for an
    /// error, so a caller can pass `format_args!("{parent}.kind")` at no cost on success.
    fn decode_field(value: i32, field: impl std::fmt::Display) -> Result<Self::Engine, ApiError> {
        Self::read(value).map_err(|problem| ApiError::invalid_field(field.to_string(), problem))
    }

    /// Reads an optional config option: unset keeps `default`; `UNSPECIFIED` and unknown
    /// numbers are [`SetupError::InvalidConfig`] on `field`.
    fn read_option(
        value: Option<i32>,
        default: Self::Engine,
        field: &str,
    ) -> Result<Self::Engine, SetupError> {
        let Some(value) = value else {
            return Ok(default);
        };
        Self::read(value).map_err(|problem| {
            let problem = if value == 0 {
                "UNSPECIFIED is not a value; leave the field unset for the default".to_string()
            } else {
                problem
            };
            SetupError::invalid_config(field, problem)
        })
    }
}

/// Writes the [`ProtoEnum`] table of a proto enum and an engine enum whose variants have the
/// same names: `proto_enum_map!(pb::ChunoColour, Colour, "colour": Red, Yellow, Green, Blue);`.
/// Both matches are exhaustive, so a variant added on either side without the other fails to
/// compile.
macro_rules! proto_enum_map {
    ($proto:ty, $engine:ty, $noun:literal: $($variant:ident),+ $(,)?) => {
        impl $crate::codec::enums::ProtoEnum for $proto {
            type Engine = $engine;
            const NOUN: &'static str = $noun;
            const ALL: &'static [Self] = &[$(<$proto>::$variant),+];

            fn of(value: $engine) -> Self {
                match value {
                    $(<$engine>::$variant => <$proto>::$variant,)+
                }
            }

            fn engine(self) -> Option<$engine> {
                match self {
                    $(<$proto>::$variant => Some(<$engine>::$variant),)+
                    <$proto>::Unspecified => None,
                }
            }
        }
    };
}
pub(crate) use proto_enum_map;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Checks one table: every value round-trips, `UNSPECIFIED` and unknown numbers are
    /// refused, and no two engine values share a proto value.
    pub(crate) fn check_table<P: ProtoEnum + std::fmt::Debug>() {
        for proto in P::ALL {
            let engine = proto.engine().expect("a value");
            assert_eq!(P::of(engine), *proto);
            assert!(P::read((*proto).into()).is_ok());
        }
        let mut numbers: Vec<i32> = P::ALL.iter().map(|proto| (*proto).into()).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), P::ALL.len());
        assert!(!numbers.contains(&0), "{:?} lists UNSPECIFIED", P::ALL);
        assert_eq!(P::read(0).err().as_deref(), Some("must be set"));
        for unknown in [-1, 1000] {
            let problem = P::read(unknown).expect_err("unknown");
            assert!(problem.contains(P::NOUN) && problem.contains(&unknown.to_string()));
        }
        for bad in [0, -1] {
            let field = P::decode_field(bad, "action.x.y").expect_err("unspecified or unknown");
            assert!(matches!(field, ApiError::InvalidField { field, .. } if field == "action.x.y"));
        }
    }
}
