//! Rule tests, one module per section of docs/rules/pigeon_chess.md. Test names start with the
//! section they check (`s3_…` checks §3).

mod s1_components;
mod s2_setup;
mod s3_movement;
mod s3_turn;
mod s4_scoring;
mod s5_end;
mod s6_hidden;
mod s7_ambiguities;
mod s7_clocks;
mod s8_termination;
mod support;
