//! Config problems, for every game, in one shape: the engine's [`SetupError::InvalidConfig`]
//! names the option at fault by its config field, and [`setup_error`] makes it a field
//! violation on `config.<game id>.<field>`. Reading a config message ([`narrow`]) reports in
//! the same terms, so a bad option reads the same whether the codec or the engine found it,
//! and whether at decode time or once CreateGame knows the seat count.

use deckmate_engine::SetupError;

use super::GameCodec;
use crate::error::ApiError;

/// A game's options as the engine checks them.
pub trait ValidateConfig {
    /// The engine's own check of the options for `seats` seats; `None` before CreateGame knows
    /// the seat count, when the options pass if some seat count could take them.
    fn validate_for(&self, seats: Option<usize>) -> Result<(), SetupError>;
}

/// [`ValidateConfig`] for a game whose options do not depend on the seat count: its
/// `Config::validate()`. Each such game says so in its codec file:
/// `validate_without_seats!(Config);`.
macro_rules! validate_without_seats {
    ($($config:ty),+ $(,)?) => {
        $(impl $crate::codec::config::ValidateConfig for $config {
            fn validate_for(&self, _seats: Option<usize>) -> Result<(), ::deckmate_engine::SetupError> {
                self.validate()
            }
        })+
    };
}

pub(crate) use validate_without_seats;

/// A setup error of game `G` as the API reports it: an invalid option is
/// [`ApiError::InvalidField`] on `config.<G::ID>.<field>` (on `config.<G::ID>` when the options
/// as a whole are at fault); an unsupported seat count is one on `seats`.
pub fn setup_error<G: GameCodec + ?Sized>(error: SetupError) -> ApiError {
    match error {
        SetupError::InvalidConfig { field, problem } if field.is_empty() => {
            ApiError::invalid_field(format!("config.{}", G::ID), problem)
        }
        SetupError::InvalidConfig { field, problem } => {
            ApiError::invalid_field(format!("config.{}.{field}", G::ID), problem)
        }
        seats @ SetupError::SeatCount { .. } => ApiError::invalid_field("seats", seats.to_string()),
    }
}

/// Reads an optional number option into the engine's narrower field: unset keeps `default`. A
/// number the field cannot hold is beyond every range the engine allows, and is refused here
/// on `field`.
pub fn narrow<T: TryFrom<u32>>(
    value: Option<u32>,
    default: T,
    field: &str,
) -> Result<T, SetupError> {
    match value {
        None => Ok(default),
        Some(value) => T::try_from(value)
            .map_err(|_| SetupError::invalid_config(field, format!("{value} is far out of range"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deckmate_engine::games::chuno::Chuno;

    #[test]
    fn setup_errors_name_the_config_field_or_the_config() {
        let field = setup_error::<Chuno>(SetupError::invalid_config("colours", "1 to 4, not 5"));
        assert_eq!(
            field,
            ApiError::invalid_field("config.chuno.colours", "1 to 4, not 5")
        );
        let whole = setup_error::<Chuno>(SetupError::invalid_config("", "too few cards"));
        assert_eq!(
            whole,
            ApiError::invalid_field("config.chuno", "too few cards")
        );
        let seats = setup_error::<Chuno>(SetupError::SeatCount {
            min: 2,
            max: 4,
            requested: 9,
        });
        assert!(
            matches!(&seats, ApiError::InvalidField { field, description }
                if field == "seats" && description == "this game is for 2 to 4 seats, not 9"),
            "{seats:?}"
        );
    }

    #[test]
    fn narrowing_keeps_defaults_and_refuses_what_cannot_fit() {
        assert_eq!(narrow::<u8>(None, 7, "colours"), Ok(7));
        assert_eq!(narrow::<u8>(Some(255), 7, "colours"), Ok(255));
        assert_eq!(
            narrow::<u8>(Some(256), 7, "colours"),
            Err(SetupError::invalid_config(
                "colours",
                "256 is far out of range"
            ))
        );
    }
}
