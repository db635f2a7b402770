//! Rule tests, one module per section of docs/rules/card_chess.md. Test names start with the
//! section they check (`s4_…` checks §4; `s10_…` the rules editions of §10).

mod s10_editions;
mod s1_components;
mod s2_setup;
mod s3_turn;
mod s4_movement;
mod s5_capture;
mod s6_end;
mod s7_hidden;
mod s8_ambiguities;
mod s9_termination;
mod support;
